"""Builds the ``flowlayout`` wheel with the web client inside it.

The metadata is in pyproject.toml; this file only adds the web client's
files to the build, from the repository's single copy of them:

- ``clients/web`` (index.html, app.js, style.css and every other file
  there) becomes the package data ``flowlayout/web/``, which
  ``flowlayout web`` serves;
- ``clients/js`` (the JS client module the page imports: ``*.js``,
  ``*.mjs``, ``*.d.ts``), when it exists, becomes ``flowlayout/js/``,
  served under ``/js/``.

Both are copied at build time (``pip install ./clients/python`` and
``pip wheel`` build in the tree, where ``../web`` and ``../js`` are).
An sdist carries copies of them under ``bundled/``, so that a wheel built
from it has them too; a build that finds no index.html in either place
fails instead of making a wheel without the page.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Callable, List, Optional

from setuptools import setup
from setuptools.command.build_py import build_py as _build_py
from setuptools.command.sdist import sdist as _sdist

try:
    from setuptools.errors import SetupError
except ImportError:  # setuptools < 59
    from distutils.errors import DistutilsSetupError as SetupError  # type: ignore

HERE = Path(__file__).resolve().parent


def _web_file(path: Path) -> bool:
    return path.is_file() and not path.name.startswith(".")


def _js_file(path: Path) -> bool:
    return _web_file(path) and path.name.endswith((".js", ".mjs", ".d.ts"))


#: (name, directory in the checkout, which files, required file or None).
#: The package directory is flowlayout/<name>, the sdist's bundled/<name>.
_CLIENTS = (
    ("web", HERE.parent / "web", _web_file, "index.html"),
    ("js", HERE.parent / "js", _js_file, None),
)


def _source(name: str, checkout: Path, required: Optional[str]) -> Optional[Path]:
    """Where the files come from: an sdist's ``bundled/<name>`` (only an
    sdist has one), else the checkout's ``clients/<name>``. None when
    neither exists and nothing is required; a missing required file is an
    error."""
    bundled = HERE / "bundled" / name
    for candidate in (bundled, checkout):
        if candidate.is_dir() and (required is None or (candidate / required).is_file()):
            return candidate
    if required is None:
        return None
    raise SetupError(
        f"the web client's {required} was found neither in {checkout} (a checkout) nor in "
        f"{bundled} (an sdist): build flowlayout from the repository's clients/python "
        f"(pip install ./clients/python, with pip 21.3 or later, which builds in place), "
        f"or from an sdist made there"
    )


def _copy(source: Path, dest: Path, keep: Callable[[Path], bool]) -> List[str]:
    """Replaces ``dest`` with the files of ``source`` that ``keep``
    accepts (a flat directory, as the bridge serves it); returns them."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    copied = []
    for path in sorted(source.iterdir()):
        if keep(path):
            shutil.copyfile(path, dest / path.name)
            copied.append(str(dest / path.name))
    return copied


class build_py(_build_py):
    """Copies the web client and the JS client module into the package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install serves the checkout's files
        self._clients: List[str] = []
        for name, checkout, keep, required in _CLIENTS:
            source = _source(name, checkout, required)
            dest = Path(self.build_lib) / "flowlayout" / name
            if source is None:
                self.announce(f"flowlayout: no {checkout}; the package has no {name}/", 2)
                if dest.exists():
                    shutil.rmtree(dest)  # left by an earlier build in the same build/
                continue
            self.announce(f"flowlayout: copying {source} to {dest}", 2)
            self._clients += _copy(source, dest, keep)

    def get_outputs(self, include_bytecode: bool = True) -> List[str]:  # type: ignore[override]
        return list(super().get_outputs(include_bytecode)) + list(getattr(self, "_clients", []))


class sdist(_sdist):
    """Adds ``bundled/web`` and ``bundled/js`` to the sdist, copies of
    ``clients/web`` and ``clients/js``, since MANIFEST.in cannot reach
    outside clients/python."""

    def make_release_tree(self, base_dir: str, files: List[str]) -> None:
        super().make_release_tree(base_dir, files)
        for name, checkout, keep, required in _CLIENTS:
            source = _source(name, checkout, required)
            if source is not None:
                _copy(source, Path(base_dir) / "bundled" / name, keep)


setup(cmdclass={"build_py": build_py, "sdist": sdist})


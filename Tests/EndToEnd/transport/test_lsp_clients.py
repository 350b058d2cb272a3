"""Two more JSON-RPC stacks this project did not write drive a whole
flowlayoutd session over real pipes, unmodified: pygls's JsonRPCClient
(start_io spawns the daemon) and pytest-lsp's LanguageClient, in its own
fixture style. Both send the session of client_session.py and must get the
answers worked out there by hand, then shutdown and exit, and the daemon must
exit with status 0.

One thing about pygls (2.x) that matters here: its default converter turns
the result of a method it does not know (every `layout/*` method) into
namedtuples built with `rename=True`, so a key that is a Python keyword is
renamed: `moved[].from` of layout/performBatchUpdates arrives as `_3`. Both
clients are therefore built with lsprotocol's plain converter
(`converter_factory=lsprotocol.converters.get_converter`, pygls's documented
extension point), under which such results stay JSON dicts;
`test_pygls_default_converter_renames_keyword_keys` shows what the default gives.
"""

from __future__ import annotations

import asyncio

import pytest

from client_session import STEPS, check_initialize, check_outcomes
from daemon_support import DAEMON, TIMEOUT

try:
    import pygls.client as pygls_client
    import pytest_lsp
    from lsprotocol import types
    from lsprotocol.converters import get_converter
    from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
    from pytest_lsp import ClientServerConfig, LanguageClient
    from pytest_lsp.client import register_lsp_features
except ImportError as e:  # a missing client fails, never skips
    pytest.fail(f"{e}: pip install -r Tests/EndToEnd/requirements.txt (make deps-python)", pytrace=False)


async def run_steps(send) -> list[dict]:
    """Sends every step with `send(method, params)` and records each
    answer as {"result": …} or, from pygls's exception, {"error": …}."""
    outcomes = []
    for method, params in STEPS:
        try:
            result = await asyncio.wait_for(send(method, params), TIMEOUT)
        except JsonRpcException as e:
            if method == "layout/setBounds":
                # pygls maps -32602 to its own exception class.
                assert isinstance(e, JsonRpcInvalidParams), type(e)
            outcomes.append({"error": {"code": e.code, "message": e.message, "data": e.data}})
        else:
            outcomes.append({"result": result})
    return outcomes


# MARK: pygls


def test_full_session_with_pygls_jsonrpc_client():
    async def session() -> None:
        client = pygls_client.JsonRPCClient(converter_factory=get_converter)
        await client.start_io(DAEMON)
        server = client._server  # the asyncio subprocess start_io spawned
        try:
            send = client.protocol.send_request_async
            init = await asyncio.wait_for(
                send("initialize", {"processId": None, "rootUri": None, "capabilities": {},
                                    "clientInfo": {"name": "pygls"}}),
                TIMEOUT,
            )
            check_initialize(init)
            client.protocol.notify("initialized", {})

            check_outcomes(await run_steps(send))

            # pygls sends `"params": null` here; the daemon reads it as {}.
            assert await asyncio.wait_for(send("shutdown", None), TIMEOUT) is None
            # After shutdown every request is -32600 with the request's id.
            with pytest.raises(JsonRpcException) as e:
                await asyncio.wait_for(send("layout/contentSize", {"session": "deck"}), TIMEOUT)
            assert e.value.code == -32600
            assert "shutting down" in e.value.message
            client.protocol.notify("exit", None)
            assert await asyncio.wait_for(server.wait(), TIMEOUT) == 0
        finally:
            if server.returncode is None:
                server.kill()
                await server.wait()
            await asyncio.wait_for(client.stop(), TIMEOUT)

    asyncio.run(session())


def test_pygls_default_converter_renames_keyword_keys():
    """With pygls's default converter the same answers arrive as namedtuples;
    every value is still there, but a key that is a Python keyword is renamed
    (by namedtuple's rename=True) to its position, so `moved[].from` cannot
    be read by name. This pins what the module docstring says."""

    async def session() -> tuple:
        client = pygls_client.JsonRPCClient()  # default_converter
        await client.start_io(DAEMON)
        server = client._server
        try:
            send = client.protocol.send_request_async
            await asyncio.wait_for(send("initialize", {}), TIMEOUT)
            opened = await asyncio.wait_for(send(*STEPS[0]), TIMEOUT)
            await asyncio.wait_for(send(*STEPS[1]), TIMEOUT)
            batch = await asyncio.wait_for(send(*STEPS[3]), TIMEOUT)
            assert await asyncio.wait_for(send("shutdown", None), TIMEOUT) is None
            client.protocol.notify("exit", None)
            code = await asyncio.wait_for(server.wait(), TIMEOUT)
        finally:
            if server.returncode is None:
                server.kill()
                await server.wait()
            await asyncio.wait_for(client.stop(), TIMEOUT)
        return opened, batch, code

    opened, batch, code = asyncio.run(session())
    assert code == 0
    assert opened.contentSize.width == 780 and opened.attributes[1].zIndex == -241
    moved = batch.moved[0]
    assert moved._fields == ("kind", "section", "item", "_3", "fromFrame", "frame")
    assert moved[3]._asdict() == {"section": 0, "item": 1}


# MARK: pytest-lsp


def plain_lsp_client() -> LanguageClient:
    """pytest-lsp's make_test_lsp_client, but with lsprotocol's plain
    converter, so that `layout/*` results stay dicts (see the docstring)."""
    client = LanguageClient(converter_factory=get_converter)
    register_lsp_features(client)
    return client


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[DAEMON], client_factory=plain_lsp_client))
async def lsp_client(lsp_client: LanguageClient):
    yield
    # pytest-lsp's teardown (client.stop()) waits for the server to exit with
    # no time limit: if the test failed before `exit`, end the daemon here.
    server = lsp_client._server
    if server is not None and server.returncode is None:
        server.kill()
        await server.wait()


@pytest.mark.asyncio
async def test_full_session_with_pytest_lsp(lsp_client: LanguageClient):
    result = await asyncio.wait_for(
        lsp_client.initialize_session(types.InitializeParams(capabilities=types.ClientCapabilities())),
        TIMEOUT,
    )
    # pygls structures initialize's answer as LSP's InitializeResult: the
    # server info survives; flowlayoutd's own capability keys are not LSP's
    # ServerCapabilities fields and are dropped.
    assert result.server_info == types.ServerInfo(name="flowlayoutd", version="0.1.0")

    # The custom methods go through the client's protocol object.
    check_outcomes(await run_steps(lsp_client.protocol.send_request_async))

    # shutdown, exit, and the wait for the process (pytest-lsp's helper).
    await asyncio.wait_for(lsp_client.shutdown_session(), TIMEOUT)
    assert lsp_client._server.returncode == 0
    assert lsp_client.error is None, lsp_client.error

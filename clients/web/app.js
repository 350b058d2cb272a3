// The flowlayoutd web client: a thin page that draws the daemon's layout
// attributes and nothing else. A picker chooses the layout: the cover-flow
// carousel (type coverFlow, scrolling sideways), a flow grid (type flow) or
// a waterfall of cards of varied aspect ratios (type waterfall), both
// scrolling vertically, an App Store page (type compositional: sections of
// rows that scroll sideways on their own, each with one of UIKit's
// orthogonal behaviours, pinned headers and a section background), or
// iCarousel's 3D carousels (type carousel, in any
// of the styles the daemon lists in capabilities.carouselStyles, sideways
// or vertically: every card stands at the viewport's centre and its
// matrix3d, perspective included, does the rest), or a settings screen (type
// list: sections of rows in any of the daemon's list appearances, with
// its headers, separators and rounded backgrounds, and swipe to delete,
// the buttons' frames being the daemon's too), or a sidebar (type list,
// appearance sidebar: outline sections, UIKit's section snapshots, a tree
// of folders that expand and collapse by click or keyboard through
// layout/expand and layout/collapse). No layout logic lives
// here: every card's position, size, transform, opacity and stacking come
// from the daemon's answers, and where a scroll settles is the daemon's call
// (layout/scrollEnded). What the page does is what UIScrollView does: it
// turns pointer and wheel input into content offsets, sends each frame's
// bounds (layout/setBounds, at most one per animation frame), reports a
// release's velocity and plays back the deceleration the daemon plans
// (its trajectory, one sample a frame). The snap policy, deceleration
// rate, tilt and loop are the layout's settings, sent to the daemon.
//
// JSON-RPC goes through the JS client module (clients/js, served by the
// bridge, `flowlayout web`, as /js/flowlayout.js): FlowLayoutClient.connect()
// reads the daemon's capabilities from GET /info and sends each request as
// POST /rpc; the bridge owns the daemon and its initialize/shutdown. The
// module's Picture keeps the visible elements, patched by every answer the
// daemon's method table marks as changing the picture.

import { FlowLayoutClient, Picture, RPCError, elementKey } from '/js/flowlayout.js';

(function () {
  /** One session per page load, so that tabs and reloads never collide;
   *  closed when the page goes away. */
  const SESSION = `web-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  /** The spacing (ms) of the trajectory samples asked of layout/scrollEnded:
   *  one per frame of a 60 Hz display. */
  const FRAME_INTERVAL_MS = 16.67;
  /** Pointer samples this recent (ms) make the release velocity. */
  const VELOCITY_WINDOW_MS = 100;
  /** How far from the edge a drag may pull, as UIScrollView's rubber band. */
  const RUBBER_BAND = 0.55;
  /** A wheel gesture ends when no event came for this long (ms). */
  const WHEEL_IDLE_MS = 160;
  const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  /** The page keeps an id per card (its data source), so it stops here;
   *  the daemon itself takes up to 100 million. */
  const MAX_CARDS = 100000;
  /** How long a batch update's moves take (style.css says the same). */
  const UPDATE_MS = 300;
  /** How long an inserted card takes to fade in (style.css: .inserting). */
  const FADE_MS = 450;
  /** The layouts the picker offers, by their `type`, and the axis each
   *  scrolls along. */
  const LAYOUTS = {
    coverFlow: { label: 'cover flow', axis: 'x' },
    flow: { label: 'flow grid', axis: 'y' },
    waterfall: { label: 'waterfall', axis: 'y' },
    compositional: { label: 'App Store', axis: 'y' },
    carousel: { label: '3D carousel', axis: null }, // its scrollDirection's
    pager: { label: 'pager', axis: null }, // its scrollDirection's
    list: { label: 'list', axis: 'y' }, // a flow of rows, changed by snapshots
    chat: { label: 'chat', axis: 'y' }, // the same, following its end
    settings: { label: 'settings', axis: 'y' }, // a list session (type list)
    sidebar: { label: 'sidebar', axis: 'y' }, // a list session of outline sections
  };
  /** The viewport presets (points), the first the page opens with; width
   *  and height of no preset are "custom". */
  const DEVICES = {
    iphone: { width: 390, height: 844 },
    iphoneLandscape: { width: 844, height: 390 },
    ipad: { width: 820, height: 1180 },
  };
  /** The preset of a viewport size, or "custom". */
  const deviceOf = (w, h) =>
    Object.keys(DEVICES).find((k) => DEVICES[k].width === w && DEVICES[k].height === h) || 'custom';
  /** The list and chat pages' one section, by id (snapshots name it). */
  const LIST_SECTION = 'rows';
  /** Their rows: the viewport's width less a margin, 44 points, 6 apart. */
  const ROW_HEIGHT = 44;
  const ROW_GAP = 6;
  const isList = (c) => c.layout === 'list' || c.layout === 'chat';
  /** The chat: messages of varied lengths, alternate sides (even ids are
   *  mine, on the right), DAY_MESSAGES a day under a date header. Each
   *  bubble's size is measured from its text (CHAT_MAX_WIDTH of the row at
   *  most) and reported by id (layout/setItemSizes, keyed self-sizing);
   *  rows start at their estimate. */
  const DAY_MESSAGES = 6;
  const CHAT_HEADER = 28;
  const CHAT_GAP = 6;
  const CHAT_MAX_WIDTH = 0.72;
  const CHAT_LINES = [
    'Sure!', 'Sounds good.', 'See you at eight.', 'Did you get the tickets?', 'The train is late again.',
    'I will bring the cake.', 'Can we move it to Friday?', 'Haha yes', 'That photo is great.',
    'Where are you?', 'Running ten minutes behind, sorry.', 'ok', 'On my way.',
    'The layout engine answered in sixteen microseconds, which is faster than I can blink.',
    'Let me check and get back to you.', 'Thanks!', 'Who else is coming?',
    'I think the second option is better, but the first one is cheaper and closer to the station.',
    'Lunch tomorrow?', 'Good morning!', 'Can you send me the address again?', 'Yes', 'No worries.',
    'The cover flow looks great on a phone now: three cards in landscape, one and a bit upright.',
  ];
  /** A message's text, from its id alone: one to three lines of the above. */
  function chatText(id) {
    let h = Math.imul(Number(id) + 7919, 0x9e3779b1) >>> 0;
    const next = () => ((h = (Math.imul(h ^ (h >>> 15), 0x85ebca6b) + 0x2c1b3c6d) >>> 0) / 4294967296);
    const count = 1 + Math.floor(next() * next() * 3);
    const out = [];
    for (let k = 0; k < count; k++) out.push(CHAT_LINES[Math.floor(next() * CHAT_LINES.length)]);
    return out.join(' ');
  }
  const chatMine = (id) => Math.abs(Number(id)) % 2 === 0;
  const dayOf = (id) => Math.floor(Number(id) / DAY_MESSAGES);
  /** A day's header: a date, day 0 being Tuesday 1 December 2026. */
  function dayLabel(day) {
    const date = new Date(Date.UTC(2026, 11, 1 + day));
    return date.toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  }
  /** The chat's sections: its messages by day, in order, each `day-<n>`. */
  function chatDays(ids) {
    const days = [];
    for (const id of ids) {
      const d = dayOf(id);
      if (!days.length || days[days.length - 1].day !== d) days.push({ day: d, ids: [] });
      days[days.length - 1].ids.push(id);
    }
    return days;
  }
  /** The bubble's measured size (CSS pixels are points here), by the same
   *  style the page draws it with. */
  let measurer = null;
  function measureChat(ids, c) {
    const row = Math.max(1, c.viewportWidth - 24);
    if (!measurer) {
      measurer = document.createElement('div');
      measurer.className = 'chat-measure';
      measurer.setAttribute('aria-hidden', 'true');
      const bubble = document.createElement('div');
      bubble.className = 'index chat-bubble';
      measurer.append(bubble);
      document.body.append(measurer);
    }
    const bubble = measurer.firstChild;
    bubble.style.maxWidth = `${Math.floor(row * CHAT_MAX_WIDTH)}px`;
    return ids.map((id) => {
      bubble.textContent = chatText(id);
      return { id, size: { width: row, height: Math.ceil(bubble.getBoundingClientRect().height) } };
    });
  }
  /** The settings page: sections of rows with ids (`general-0`, …), titled
   *  from the ids alone. The daemon's list lays them out (44-point rows,
   *  supplementary headers); the page keeps only which rows remain. */
  const SETTINGS_SECTIONS = [
    { id: 'general', title: 'General', rows: ['About', 'Software Update', 'AirDrop', 'AirPlay & Handoff', 'Background App Refresh', 'Date & Time'] },
    { id: 'privacy', title: 'Privacy & Security', rows: ['Location Services', 'Tracking', 'Contacts', 'Calendars'] },
    { id: 'apps', title: 'Apps', rows: ['Mail', 'Messages', 'Maps', 'Music', 'Photos', 'Safari', 'Weather', 'Notes'] },
  ];
  /** Every row, as the page starts (and as "restore rows" brings back). */
  const settingsData = () =>
    SETTINGS_SECTIONS.map((s) => ({ id: s.id, items: s.rows.map((_, k) => `${s.id}-${k}`) }));
  /** A row's title from its id. */
  function settingsTitle(id) {
    const m = /^(.*)-(\d+)$/.exec(String(id));
    const section = m && SETTINGS_SECTIONS.find((s) => s.id === m[1]);
    return section ? section.rows[Number(m[2])] || String(id) : String(id);
  }
  /** The appearance the picker starts on, if the daemon has it (the list
   *  is the daemon's: capabilities.listAppearances). */
  const PREFERRED_APPEARANCE = 'insetGrouped';
  /** The sidebar page: a small file browser, one outline a section (UIKit's
   *  section snapshots). A folder is [name, expanded at start, children], a
   *  file its name. A node's id is its path (`Documents/Work`), unique
   *  across the sections; its title is the path's last part. The daemon
   *  lays the visible nodes out as rows (a `list` in the `sidebar`
   *  appearance); the page keeps the tree and each folder's flag. */
  const SIDEBAR_SECTIONS = [
    {
      id: 'favorites',
      title: 'Favorites',
      tree: [
        'Desktop',
        ['Documents', true, [['Work', true, ['Report.pages', 'Budget.numbers']], ['Personal', false, ['Taxes.pdf']], 'Notes.txt']],
        ['Downloads', false, ['Installer.dmg']],
      ],
    },
    {
      id: 'projects',
      title: 'Projects',
      tree: [
        ['flowlayoutd', false, [
          ['Sources', true, [['Outline', true, ['Outline.swift', 'Expand.swift']], 'main.swift']],
          ['Tests', false, ['test_web.py']],
          'README.md',
        ]],
      ],
    },
  ];
  /** The sidebar's data as the page starts: per section its nodes, each
   *  {id, expanded, children} (a file: no children, never expanded). */
  function sidebarData() {
    const node = (n, prefix) => {
      if (typeof n === 'string') return { id: prefix + n, expanded: false, children: [] };
      const [name, expanded, children] = n;
      const id = prefix + name;
      return { id, expanded, children: children.map((c) => node(c, `${id}/`)) };
    };
    return SIDEBAR_SECTIONS.map((s) => ({ id: s.id, nodes: s.tree.map((n) => node(n, '')) }));
  }
  /** A node's title from its id: the path's last part. */
  const sidebarTitle = (id) => String(id).slice(String(id).lastIndexOf('/') + 1);
  /** Nodes as layout/open's `outline`: a folder's flag and children, a
   *  file's id alone. */
  const outlineOf = (nodes) =>
    nodes.map((n) => (n.children.length ? { id: n.id, expanded: n.expanded, children: outlineOf(n.children) } : { id: n.id }));
  /** A section's rows: its visible nodes (every ancestor expanded), in
   *  pre-order, as the daemon lays them out. */
  function visibleNodes(nodes, out = []) {
    for (const n of nodes) {
      out.push(n);
      if (n.expanded) visibleNodes(n.children, out);
    }
    return out;
  }
  /** A row's disclosure triangle: a folder's, by its `expanded`. */
  const disclosure = (expanded) => (expanded === undefined ? '' : expanded ? '\u25be' : '\u25b8');
  /** A row's trailing swipe actions, as layout/beginSwipe takes them: the
   *  first, destructive, at the edge (a full swipe performs it). */
  const SWIPE_ACTIONS = [
    { width: 74, style: 'destructive', title: 'Delete' },
    { width: 74, style: 'normal', title: 'Flag' },
  ];
  /** How long a released row takes to slide to rest (style.css says the same). */
  const SWIPE_MS = 250;
  /** The App Store page: section 0 holds the cards of the data source (the
   *  count control, insert and delete), a featured row that centres a card
   *  per fling and zooms it; each other row shows one of UIKit's orthogonal
   *  behaviours; the last section is a plain grid on a background. Every
   *  section has a header that pins. The layouts are the daemon's to
   *  apply: the page only draws its answers. */
  const APP_ROW_ITEMS = 12;
  const item = (w, h, insets) => {
    const it = { size: { width: w, height: h } };
    if (insets) it.contentInsets = { top: insets, leading: insets, bottom: insets, trailing: insets };
    return it;
  };
  const FULL = { fractionalWidth: 1 };
  const FILL = { fractionalHeight: 1 };
  function appSection(title, group, behavior, extra = {}) {
    return {
      title,
      layout: {
        group,
        interGroupSpacing: 10,
        contentInsets: { top: 6, leading: 16, bottom: 12, trailing: 16 },
        orthogonalScrollingBehavior: behavior,
        boundarySupplementaryItems: [
          { kind: 'header', size: { width: FULL, height: { absolute: 28 } }, pinToVisibleBounds: true },
        ],
        ...extra,
      },
    };
  }
  const APP_SECTIONS = [
    appSection(
      'Featured · groupPagingCentered',
      { direction: 'horizontal', size: { width: { fractionalWidth: 0.72 }, height: { absolute: 150 } },
        subitems: [item(FULL, FILL)] },
      'groupPagingCentered',
      { effect: { scale: { peak: 1, factor: 0.6, minimum: 0.82 }, alpha: { peak: 1, factor: 0.9, minimum: 0.55 } } },
    ),
    appSection(
      'continuous',
      { direction: 'horizontal', size: { width: { absolute: 96 }, height: { absolute: 96 } }, subitems: [item(FULL, FILL)] },
      'continuous',
    ),
    appSection(
      'continuousGroupLeadingBoundary',
      { direction: 'vertical', size: { width: { fractionalWidth: 0.8 }, height: { absolute: 168 } },
        subitems: [item(FULL, { fractionalHeight: 1 / 3 }, 3)] },
      'continuousGroupLeadingBoundary',
    ),
    appSection(
      'paging',
      { direction: 'horizontal', size: { width: { fractionalWidth: 0.5 }, height: { absolute: 90 } },
        subitems: [item(FULL, FILL, 4)] },
      'paging',
    ),
    appSection(
      'groupPaging',
      { direction: 'horizontal', size: { width: { absolute: 140 }, height: { absolute: 90 } }, subitems: [item(FULL, FILL)] },
      'groupPaging',
    ),
    appSection(
      'Top charts · background',
      { direction: 'horizontal', size: { width: FULL, height: { absolute: 64 } },
        subitems: [item({ fractionalWidth: 0.5 }, FILL, 4)] },
      'none',
      { decorationItems: [{ kind: 'background', contentInsets: { top: 0, leading: 8, bottom: 4, trailing: 8 } }] },
    ),
  ];
  /** The sections of `layout/open` for `c` with n cards. */
  function sectionsOf(c, n, sizes, ids) {
    if (c.layout === 'chat') {
      const days = chatDays(ids);
      state.chatDays = days.map((d) => d.day);
      return days.map((d) => ({ id: `day-${d.day}`, itemCount: d.ids.length, ids: d.ids }));
    }
    if (isList(c)) return [{ id: LIST_SECTION, itemCount: n, ids }];
    if (c.layout === 'settings') {
      return state.settings.map((s) => ({ id: s.id, itemCount: s.items.length, ids: s.items }));
    }
    if (c.layout === 'sidebar') return state.sidebar.map((s) => ({ id: s.id, outline: outlineOf(s.nodes) }));
    if (c.layout === 'compositional') {
      return APP_SECTIONS.map((s, k) => ({ itemCount: k === 0 ? n : APP_ROW_ITEMS, layout: s.layout }));
    }
    return [sizes ? { itemSizes: sizes } : { itemCount: n }];
  }
  /** Every section's item count after a change to the cards (section 0). */
  const itemCountsOf = (c, n) =>
    c.layout === 'compositional' ? [n, ...APP_SECTIONS.slice(1).map(() => APP_ROW_ITEMS)] : [n];
  /** The sections of the open session that scroll on their own. */
  const rowSections = (c) =>
    c.layout === 'compositional'
      ? new Set(APP_SECTIONS.flatMap((s, k) => (s.layout.orthogonalScrollingBehavior !== 'none' ? [k] : [])))
      : new Set();
  /** The 3D carousel's style the picker starts on, if the daemon has it
   *  (the list itself is the daemon's: capabilities.carouselStyles). */
  const PREFERRED_CAROUSEL_STYLE = 'rotary';
  /** The controls of a vertical layout that `layout/configure` changes in
   *  place (no re-open), with the layout fields they set. */
  const CONFIGURABLE = {
    flow: {
      gridItemWidth: (c) => ({ itemSize: { width: c.gridItemWidth, height: c.gridItemHeight } }),
      gridItemHeight: (c) => ({ itemSize: { width: c.gridItemWidth, height: c.gridItemHeight } }),
      lineSpacing: (c) => ({ minimumLineSpacing: c.lineSpacing }),
      gridInteritemSpacing: (c) => ({ minimumInteritemSpacing: c.gridInteritemSpacing }),
    },
    waterfall: {
      columnCount: (c) => ({ columnCount: c.columnCount }),
      columnSpacing: (c) => ({ minimumColumnSpacing: c.columnSpacing }),
      itemSpacing: (c) => ({ minimumInteritemSpacing: c.itemSpacing }),
      placement: (c) => ({ placement: c.placement }),
    },
    settings: {
      settingsAppearance: (c) => ({ appearance: c.settingsAppearance }),
    },
  };
  /** A waterfall card's width in its size (the daemon scales it to the
   *  column: only the aspect ratio counts). */
  const WATERFALL_CARD_WIDTH = 100;

  const $ = (id) => document.getElementById(id);
  const view = $('viewport');
  const form = $('controls');
  const picker = $('picker');

  /** The axis a config's layout scrolls along: 'x' or 'y'. */
  const axisOf = (c) => {
    // The carousel and the pager scroll along their own direction control.
    const direction = { carousel: c.carouselDirection, pager: c.pagerDirection }[c.layout];
    if (direction === undefined) return LAYOUTS[c.layout].axis;
    return direction === 'vertical' ? 'y' : 'x';
  };
  /** The viewport's extent along an axis. */
  const extentOf = (c, axis) => (axis === 'x' ? c.viewportWidth : c.viewportHeight);

  /** A waterfall card's size, from its id alone (so it keeps its shape
   *  whatever its index, and the same data gives the same page): 100 wide,
   *  60 to 180 tall, by a hash of the id. */
  function waterfallSize(id) {
    let h = Math.imul(id + 1, 0x9e3779b1);
    h ^= h >>> 15;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    const u = (h >>> 0) / 4294967296;
    return { width: WATERFALL_CARD_WIDTH, height: 60 + Math.round(120 * u) };
  }

  // MARK: JSON-RPC through the client module

  /** The connection to the bridge, once /info has answered. */
  let client = null;
  const connection = FlowLayoutClient.connect().then((c) => {
    client = c;
    return c;
  });

  /** The picture: the daemon's attributes of every visible element, as of
   *  its last answer, with the content size, bounds and centred item. */
  const picture = new Picture();

  /** Sends one request; resolves with its result, rejects with its error
   *  (an RPCError, or a DaemonError when the bridge is gone). An answer
   *  that changes the picture (the method table's "open" or "delta") is
   *  applied to it first. */
  async function request(method, params) {
    const c = client || (await connection);
    const result = await c.request(method, params);
    if (c.changesPicture(method)) picture.apply(result);
    return result;
  }

  // MARK: state

  /** The controls' values: what the current session was opened with. */
  let config = readForm();

  const state = {
    sessionOpen: false, // the daemon holds the session
    live: false, //        frames may be sent (false while re-opening)
    generation: 0, //      bumps on every re-open; older answers are dropped
    cards: [], //          the data source: a stable id per item
    nextCardId: 0,
    offset: { x: 0, y: 0 }, // the content offset the page wants on screen
    lastRelease: null,
    busy: 0, //            re-opens queued or running
    wraps: false, //       the content repeats without end: offsets are unbounded
    rows: {}, //           each row's offset the page wants on screen, by section
    rowsDrawn: {}, //      each row's offset as the daemon last answered (clamped)
    settings: settingsData(), // the settings page's sections: [{id, items: [row id]}]
    flagged: new Set(), // its rows flagged with the swipe's second action
    sidebar: sidebarData(), // the sidebar's sections: [{id, nodes: [{id, expanded, children}]}]
    focus: null, //        the sidebar's focused (selected) row, by id
    lastOutline: null, //  the last expand or collapse: {method, ids, updates}
  };

  /** The sidebar's rows, both sections, top to bottom: [{id, node,
   *  section, item}]. */
  function sidebarRows() {
    return state.sidebar.flatMap((s, section) =>
      visibleNodes(s.nodes).map((node, item) => ({ id: node.id, node, section, item })),
    );
  }
  /** A sidebar node by id, with its parent node (null for a root). */
  function sidebarFind(id) {
    const walk = (nodes, parent) => {
      for (const node of nodes) {
        if (node.id === id) return { node, parent };
        const found = walk(node.children, node);
        if (found) return found;
      }
      return null;
    };
    for (const s of state.sidebar) {
      const found = walk(s.nodes, null);
      if (found) return found;
    }
    return null;
  }
  /** Card elements by data identity, so a card keeps its element (and an
   *  inserted one gets a new one) whatever its index. */
  const nodes = new Map();
  /** Ids of cards to fade in when they are first drawn. */
  let fadeIds = new Set();

  // MARK: drawing

  /** The data the element shows: the card's id in the data source, so a
   *  card keeps its colour (and element) whatever its index. */
  function dataIdentity(a) {
    if (config.layout === 'settings') return settingsIdentity(a);
    if (config.layout === 'sidebar') return sidebarIdentity(a);
    // A chat's date header, by its day (sections shift as history loads).
    if (config.layout === 'chat' && a.kind === 'header' && state.chatDays) {
      return `day-${state.chatDays[a.section]}`;
    }
    if (a.kind !== 'cell') return `${a.kind}-${a.section}`;
    // Items with ids are keyed by the daemon's id (the list and chat pages).
    if (a.id !== undefined) return `card-${a.id}`;
    const id = a.section === 0 ? state.cards[a.item] : undefined;
    return id === undefined ? `item-${a.section}-${a.item}` : `card-${id}`;
  }

  /** The settings page's elements by the ids of its data: a row by its id,
   *  a separator by its row's (separators carry no id: the row is the one
   *  at its index path in the page's data), a header or background by its
   *  section's; so each keeps its element across a delete. */
  function settingsIdentity(a) {
    const section = state.settings[a.section];
    if (a.kind === 'cell') return `row-${a.id}`;
    if (a.kind === 'separator') {
      const row = settingsRowOf(a);
      return row === undefined ? `separator-${a.section}-${a.item}-${a.edge}` : `separator-${row}-${a.edge}`;
    }
    return `${a.kind}-${section ? section.id : a.section}`;
  }
  /** The id of a settings row or of the row a separator belongs to. */
  function settingsRowOf(a) {
    if (a.kind === 'cell') return a.id;
    const section = state.settings[a.section];
    return a.kind === 'separator' && section ? section.items[a.item] : undefined;
  }

  /** The sidebar's elements by id: a row by its node's, a separator (an
   *  appearance with them) by its row's, a header by its section's. */
  function sidebarIdentity(a) {
    if (a.kind === 'cell') return `row-${a.id}`;
    const row = sidebarRowOf(a);
    if (a.kind === 'separator') {
      return row === undefined ? `separator-${a.section}-${a.item}-${a.edge}` : `separator-${row}-${a.edge}`;
    }
    const section = state.sidebar[a.section];
    return `${a.kind}-${section ? section.id : a.section}`;
  }
  /** The id of a sidebar row or of the row a separator belongs to: the
   *  visible node at its index path. */
  function sidebarRowOf(a) {
    if (a.kind === 'cell') return a.id;
    const section = state.sidebar[a.section];
    const node = a.kind === 'separator' && section ? visibleNodes(section.nodes)[a.item] : undefined;
    return node ? node.id : undefined;
  }

  /** The element's identity: its data, and in a loop its lap, since every
   *  copy of a card is drawn by an element of its own. */
  function identity(a) {
    const data = dataIdentity(a);
    return a.lap === undefined ? data : `${data}@lap${a.lap}`;
  }

  function hueOf(id) {
    const n = Number(String(id).replace(/\D+/g, '')) || 0;
    return (n * 137.508 + 205) % 360;
  }

  const signed = (n) => String(n).replace('-', '\u2212');

  function makeCard(id, a) {
    if (config.layout === 'settings') return makeSettingsElement(id, a);
    if (config.layout === 'sidebar') return makeSidebarElement(id, a);
    const el = document.createElement('div');
    el.className = 'card';
    el.dataset.id = id;
    el.style.setProperty('--hue', hueOf(dataIdentity(a)).toFixed(1));
    const index = document.createElement('div');
    index.className = 'index';
    const caption = document.createElement('div');
    caption.className = 'caption';
    caption.textContent =
      a.kind !== 'cell' ? a.kind : a.lap === undefined ? 'item' : `item \u00b7 lap ${signed(a.lap)}`;
    el.append(index, caption);
    return el;
  }

  /** A settings element: a row is a clip (the row's frame and rounded
   *  corners) around its content, which a swipe slides; a header holds its
   *  title; a separator and a background are their own shapes. */
  function makeSettingsElement(id, a) {
    const el = document.createElement('div');
    el.className = 'card';
    el.dataset.id = id;
    const content = document.createElement('div');
    content.className = 'index';
    if (a.kind === 'cell') {
      content.classList.add('row-content');
      const title = document.createElement('span');
      title.className = 'row-title';
      const flag = document.createElement('span');
      flag.className = 'row-flag';
      flag.setAttribute('aria-label', 'flagged');
      const chevron = document.createElement('span');
      chevron.className = 'row-chevron';
      chevron.setAttribute('aria-hidden', 'true');
      chevron.textContent = '\u203a';
      content.append(title, flag, chevron);
    }
    el.append(content);
    return el;
  }

  /** A sidebar element: a row holds its content (indented by the row's
   *  `indentation`): a folder's disclosure triangle, then the title; a
   *  header holds its section's title. */
  function makeSidebarElement(id, a) {
    const el = document.createElement('div');
    el.className = 'card';
    el.dataset.id = id;
    const content = document.createElement('div');
    content.className = 'index';
    if (a.kind === 'cell') {
      content.classList.add('row-content');
      const triangle = document.createElement('span');
      triangle.className = 'row-disclosure';
      triangle.setAttribute('aria-hidden', 'true');
      const title = document.createElement('span');
      title.className = 'row-title';
      content.append(triangle, title);
      el.setAttribute('role', 'treeitem');
    }
    el.append(content);
    return el;
  }

  /** The sidebar's part of placing an element: a row's outline fields as
   *  the daemon answers them (level, parent, expanded, indentation), its
   *  triangle, title and focus; a header's title. */
  function placeSidebar(el, a) {
    if (!a.transform) el.style.transform = 'none';
    if (a.kind === 'separator') el.dataset.edge = a.edge;
    const row = sidebarRowOf(a);
    if (row !== undefined) el.dataset.row = String(row);
    if (a.kind === 'cell') {
      const set = (name, value) => {
        if (value === undefined) delete el.dataset[name];
        else el.dataset[name] = String(value);
      };
      set('level', a.level);
      set('parent', a.parent);
      set('expanded', a.expanded);
      set('indentation', a.indentation);
      const content = el.firstChild;
      content.style.setProperty('--indentation', `${a.indentation || 0}px`);
      content.querySelector('.row-disclosure').textContent = disclosure(a.expanded);
      content.querySelector('.row-title').textContent = sidebarTitle(a.id);
      el.classList.toggle('folder', a.expanded !== undefined);
      el.setAttribute('aria-level', String((a.level || 0) + 1));
      if (a.expanded === undefined) el.removeAttribute('aria-expanded');
      else el.setAttribute('aria-expanded', String(a.expanded));
      el.setAttribute('aria-label', sidebarTitle(a.id));
      drawFocusOn(el);
    }
    if (a.kind === 'header') {
      const section = state.sidebar[a.section];
      const info = section && SIDEBAR_SECTIONS.find((x) => x.id === section.id);
      el.firstChild.textContent = info ? info.title : `Section ${a.section}`;
    }
  }

  /** The focused row is highlighted (and selected, for assistive tech). */
  function drawFocusOn(el) {
    const focused = el.dataset.row !== undefined && el.dataset.row === String(state.focus);
    el.classList.toggle('focused', focused);
    el.setAttribute('aria-selected', String(focused));
  }
  function drawFocus() {
    for (const el of nodes.values()) if (el.dataset.kind === 'cell' && el.dataset.row !== undefined) drawFocusOn(el);
  }

  /** The corner radius of each section's rows: its background's, as the
   *  daemon answers it (`cornerRadius`; 0 without a background). A row is
   *  in view only with its background, which spans the section's rows. */
  let sectionRadii = new Map();
  const radiiOf = (elements) =>
    new Map(elements.filter((a) => a.kind === 'decoration').map((a) => [a.section, a.cornerRadius || 0]));

  /** CSS border-radius for the corners `mask` names (cornerMask's names,
   *  leading being left: the page is ltr), `r` each. */
  function cornerRadii(mask, r) {
    const on = new Set(mask || []);
    return ['topLeading', 'topTrailing', 'bottomTrailing', 'bottomLeading']
      .map((c) => (on.has(c) && r > 0 ? `${r}px` : '0'))
      .join(' ');
  }

  /** The settings page's part of placing an element: a row's rounded
   *  corners (its cornerMask, its section background's radius) and title,
   *  a background's radius, a header's title. */
  function placeSettings(el, a) {
    const s = el.style;
    const section = state.settings[a.section];
    // A list sends no transform; without one (and without a layer of its
    // own, style.css) a half-point separator is painted as a line.
    if (!a.transform) s.transform = 'none';
    if (a.kind === 'separator') el.dataset.edge = a.edge;
    else delete el.dataset.edge;
    const row = settingsRowOf(a);
    if (row !== undefined) el.dataset.row = String(row);
    if (a.kind === 'decoration') s.borderRadius = `${a.cornerRadius || 0}px`;
    if (a.kind === 'cell') {
      s.borderRadius = cornerRadii(a.cornerMask, sectionRadii.get(a.section) || 0);
      el.querySelector('.row-title').textContent = settingsTitle(a.id);
      el.classList.toggle('flagged', state.flagged.has(a.id));
      if (!swipe || swipe.id !== a.id) el.dataset.translation = '0';
    }
    if (a.kind === 'header') {
      const info = section && SETTINGS_SECTIONS.find((x) => x.id === section.id);
      el.firstChild.textContent = info ? info.title : `Section ${a.section}`;
    }
  }

  /** Puts a card where the attributes say: its centre at center − bounds
   *  origin, its untransformed size, the transform about its centre (a
   *  carousel's matrix3d carries its perspective, m34, so the viewport
   *  needs none). */
  function place(el, a, bounds) {
    const s = el.style;
    s.width = `${a.size.width}px`;
    s.height = `${a.size.height}px`;
    s.left = `${a.center.x - bounds.x - a.size.width / 2}px`;
    s.top = `${a.center.y - bounds.y - a.size.height / 2}px`;
    s.transform = `matrix3d(${(a.transform || IDENTITY).join(', ')})`;
    s.zIndex = String(a.zIndex);
    if (!el.fadePending) s.opacity = String(a.alpha);
    // A hidden carousel card (turned away with backfaces off, or reaching
    // the eye) is never in the picture; should one come, it is not shown.
    s.visibility = a.hidden ? 'hidden' : '';
    const side = Math.min(a.size.width, a.size.height);
    s.setProperty('--index-size', `${(side * 0.42).toFixed(1)}px`);
    s.setProperty('--caption-size', `${Math.max(6, side * 0.07).toFixed(1)}px`);
    el.dataset.kind = a.kind;
    el.dataset.section = String(a.section);
    el.dataset.item = String(a.item);
    if (a.lap === undefined) delete el.dataset.lap;
    else el.dataset.lap = String(a.lap);
    if (config.layout === 'settings') {
      placeSettings(el, a);
      return;
    }
    if (config.layout === 'sidebar') {
      placeSidebar(el, a);
      return;
    }
    if (config.layout === 'chat') {
      // A bubble of its text on its side; a header is its day's date.
      const chat = a.kind === 'cell' && a.id !== undefined;
      el.firstChild.classList.toggle('chat-bubble', chat);
      el.firstChild.classList.toggle('chat-date', a.kind === 'header');
      if (chat) {
        el.dataset.side = chatMine(a.id) ? 'mine' : 'theirs';
        el.firstChild.style.maxWidth = `${Math.floor(a.size.width * CHAT_MAX_WIDTH)}px`;
        el.firstChild.textContent = chatText(a.id);
      } else {
        el.firstChild.textContent =
          a.kind === 'header' && state.chatDays ? dayLabel(state.chatDays[a.section]) : '';
      }
      return;
    }
    el.firstChild.textContent =
      a.kind === 'cell'
        ? String(a.item)
        : a.kind === 'header' && config.layout === 'compositional' && APP_SECTIONS[a.section]
          ? APP_SECTIONS[a.section].title
          : `${a.kind[0].toUpperCase()}${a.section}`;
  }

  /** "An insert animates in": from opacity 0 to the daemon's alpha. */
  function fadeIn(el, alpha) {
    el.fadePending = false;
    el.classList.add('inserting');
    getComputedStyle(el).opacity; // commit opacity 0 before the change
    el.style.opacity = String(alpha);
    setTimeout(() => el.classList.remove('inserting'), FADE_MS + 40);
  }

  /** A card that left during an update fades out where it stands. */
  function fadeOut(el) {
    el.classList.remove('updating');
    el.classList.add('ghost');
    getComputedStyle(el).opacity;
    el.style.opacity = '0';
    setTimeout(() => el.remove(), UPDATE_MS + 40);
  }

  /** A card that scrolled into view with an update starts from where the
   *  daemon says it was (`moved`: its frame before, in the old bounds). */
  function placeAtFrame(el, a, frame, bounds) {
    const s = el.style;
    s.width = `${a.size.width}px`;
    s.height = `${a.size.height}px`;
    s.left = `${frame.x + frame.width / 2 - bounds.x - a.size.width / 2}px`;
    s.top = `${frame.y + frame.height / 2 - bounds.y - a.size.height / 2}px`;
    const sx = a.size.width ? frame.width / a.size.width : 1;
    const sy = a.size.height ? frame.height / a.size.height : 1;
    s.transform = `matrix3d(${sx}, 0, 0, 0, 0, ${sy}, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)`;
    getComputedStyle(el).left; // commit the start before the transition
  }

  let updateTimer = 0;

  /** Ends an update's transitions at once (a drag must not lag behind). */
  function finishUpdate() {
    if (!updateTimer) return;
    clearTimeout(updateTimer);
    updateTimer = 0;
    for (const el of nodes.values()) el.classList.remove('updating');
  }

  /**
   * Draws the picture. With `update` (the answer to a batch update: its
   * `moved` list and the bounds before it), every card that stays on screen
   * glides from where it was to where it now is, cards that come into view
   * start from their old frame, inserted cards fade in and cards that leave
   * fade out, as UICollectionView animates performBatchUpdates.
   */
  function render(update) {
    const bounds = picture.bounds;
    if (!bounds) return;
    const centred = picture.centeredItem;
    const movedFrom = new Map(update ? update.moved.map((m) => [elementKey(m), m.fromFrame]) : []);
    const seen = new Set();
    const fresh = [];
    const elements = picture.elements();
    const settings = config.layout === 'settings';
    if (settings) sectionRadii = radiiOf(elements);
    // The list pages' separators know their row by the page's data.
    const rowOf = settings ? settingsRowOf : config.layout === 'sidebar' ? sidebarRowOf : null;
    // A row's separators lie inside its frame, at its zIndex: they follow
    // it in the document, so as to be drawn over its content (a top
    // separator comes before its row in document order: moved after it).
    const before = [];
    for (const a of elements) {
      const id = identity(a);
      seen.add(id);
      let el = nodes.get(id);
      if (!el) {
        el = makeCard(id, a);
        nodes.set(id, el);
        const row = rowOf && a.kind === 'separator' ? nodes.get(`row-${rowOf(a)}`) : undefined;
        if (row) row.after(el);
        else view.appendChild(el);
        if (rowOf && a.kind === 'separator' && !row) before.push([el, `row-${rowOf(a)}`]);
        if (fadeIds.has(id)) {
          el.fadePending = true;
          el.style.opacity = '0';
          fresh.push([el, a]);
        } else if (update && movedFrom.has(elementKey(a))) {
          placeAtFrame(el, a, movedFrom.get(elementKey(a)), update.bounds);
        }
      }
      if (update && !el.fadePending) el.classList.add('updating');
      place(el, a, bounds);
      el.classList.toggle('moving', a.moving === true);
      el.classList.toggle(
        'centred',
        a.kind === 'cell' &&
          centred !== null &&
          a.section === centred.section &&
          a.item === centred.item &&
          a.lap === centred.lap,
      );
    }
    for (const [el, row] of before) if (nodes.has(row)) nodes.get(row).after(el);
    for (const [id, el] of nodes) {
      if (!seen.has(id)) {
        nodes.delete(id);
        if (update) fadeOut(el);
        else el.remove();
      }
    }
    for (const [el, a] of fresh) fadeIn(el, a.alpha);
    if (settings) drawSwipe(update);
    if (update) {
      clearTimeout(updateTimer);
      updateTimer = setTimeout(
        () => {
          updateTimer = 0;
          for (const el of nodes.values()) el.classList.remove('updating');
        },
        (fresh.length ? Math.max(UPDATE_MS, FADE_MS) : UPDATE_MS) + 40,
      );
    }
    updateHud();
  }

  const fmt = (v) => (Math.round(v * 10) / 10).toFixed(1).replace(/\.0$/, '').replace(/^-0$/, '0');

  function updateHud() {
    const centred = picture.centeredItem;
    $('centred').textContent = centred ? String(centred.item) : '–';
    const axis = axisOf(config);
    $('offset').textContent = picture.bounds ? `${axis} ${fmt(picture.bounds[axis])}` : '–';
    $('content').textContent = picture.contentSize
      ? `${fmt(picture.contentSize.width)} × ${fmt(picture.contentSize.height)}`
      : '–';
    $('cardcount').textContent = String(
      config.layout === 'settings'
        ? state.settings.reduce((n, s) => n + s.items.length, 0)
        : config.layout === 'sidebar'
          ? sidebarRows().length
          : state.cards.length,
    );
    $('lap').textContent =
      centred && centred.lap !== undefined ? signed(centred.lap) : '–';
    const r = state.lastRelease;
    $('release').textContent = r
      ? `v ${r.velocity.toFixed(2)} pt/ms → ${r.axis} ${fmt(r.projected)} → ${r.axis} ${fmt(r.target)}` +
        ` (${r.targetItem ? `item ${r.targetItem.item}, ` : ''}${r.policy})`
      : '–';
    $('delete').disabled = state.cards.length === 0;
    writeHash();
  }

  function showError(error) {
    const el = $('error');
    el.textContent =
      error instanceof RPCError
        ? `${error.method}: ${error.message} (${error.code})`
        : String(error && error.message ? error.message : error);
    el.hidden = false;
    console.error(error);
  }

  function clearError() {
    $('error').hidden = true;
  }

  // MARK: frames: one setBounds per animation frame, one in flight

  const pump = { frame: false, dirty: false, inFlight: null, row: null };

  /** The bounds for a content offset {x, y}. */
  function viewportRect(offset, c) {
    return { x: offset.x, y: offset.y, width: c.viewportWidth, height: c.viewportHeight };
  }

  /** The offset (and every row's) is what the daemon's last answer drew. */
  const drawn = () =>
    picture.bounds !== null &&
    picture.bounds.x === state.offset.x &&
    picture.bounds.y === state.offset.y &&
    pump.row === null;

  function requestFrame() {
    if (!pump.frame) {
      pump.frame = true;
      requestAnimationFrame(onFrame);
    }
  }

  /** The offset changed: its bounds go out with the next frame. */
  function offsetChanged() {
    pump.dirty = true;
    requestFrame();
  }

  function onFrame(now) {
    pump.frame = false;
    if (anim) stepAnimation(now);
    if (reorder && !reorder.ending) {
      stepAutoscroll(now);
      if (autoscrolling()) requestFrame(); // the next step, whatever comes back
    }
    if (pump.row !== null && !pump.inFlight && state.live) sendRow();
    else if (pump.dirty && !pump.inFlight && state.live) sendBounds();
    else if (reorder && reorder.dirty && !reorder.ending && !pump.inFlight && state.live) sendReorder();
  }

  /** A row's offset changed: layout/scrollSection goes out with the next
   *  frame (one row at a time: a drag or a fling moves one). */
  function rowChanged(section) {
    pump.row = section;
    requestFrame();
  }

  /** A row's scroll frame: the daemon clamps the offset to the row's
   *  range and answers the delta (the row's cards that moved, zoomed or
   *  faded). */
  function sendRow() {
    const section = pump.row;
    pump.row = null;
    const generation = state.generation;
    pump.inFlight = request('layout/scrollSection', {
      session: SESSION,
      section,
      offset: state.rows[section] || 0,
    })
      .then((r) => {
        if (generation !== state.generation) return;
        state.rowsDrawn[section] = r.offset;
        render();
      })
      .catch(showError)
      .finally(() => {
        pump.inFlight = null;
        if (pump.row !== null || pump.dirty) requestFrame();
      });
  }

  function sendBounds() {
    pump.dirty = false;
    const generation = state.generation;
    pump.inFlight = request('layout/setBounds', {
      session: SESSION,
      bounds: viewportRect(state.offset, config),
    })
      .then(() => {
        // The answer is in the picture; an older session's is drawn over
        // by the re-open that made it old.
        if (generation === state.generation) render();
      })
      .catch(showError)
      .finally(() => {
        pump.inFlight = null;
        if (pump.dirty) requestFrame(); // the latest offset, next frame
      });
  }

  // MARK: settling: scrollEnded, then the daemon's trajectory

  /** The running motion: {samples, interval, start, k} plays the daemon's
   *  trajectory back, sample k at k·interval ms; {from, to, start,
   *  duration} is the ease-out used when an answer carries no trajectory. */
  let anim = null;
  let settling = 0;
  let settleToken = 0;

  /** An ease-out to x along the axis: only for answers without a
   *  trajectory. */
  function animateTo(x, axis) {
    const from = state.offset[axis];
    const distance = Math.abs(x - from);
    if (distance < 1e-9) {
      anim = null;
      state.offset[axis] = x;
      offsetChanged();
      return;
    }
    anim = { axis, from, to: x, start: null, duration: Math.min(500, Math.max(300, 250 + distance * 0.25)) };
    requestFrame();
  }

  /**
   * Moves as a layout/scrollEnded answer says: along its `trajectory`, the
   * offsets every FRAME_INTERVAL_MS ms from the release to the target (the
   * deceleration the snap policy and rate call for), one sample per frame;
   * each frame's offset goes out as that frame's setBounds. Falls back to
   * an ease-out to the target when there is no trajectory.
   */
  function follow(snap) {
    const axis = axisOf(config); // across it the offset stays (0: no range)
    const samples = Array.isArray(snap.trajectory) ? snap.trajectory.map((p) => p[axis]) : [];
    if (!samples.length || !samples.every(Number.isFinite)) {
      animateTo(snap.targetContentOffset[axis], axis);
      return;
    }
    state.offset[axis] = samples[0]; // where the release was
    if (samples.length === 1) {
      anim = null;
      offsetChanged();
      return;
    }
    // Every scrollEnded the page sends asks for FRAME_INTERVAL_MS spacing.
    anim = { axis, samples, interval: FRAME_INTERVAL_MS, start: null, k: 0 };
    offsetChanged();
  }

  function stepAnimation(now) {
    if (anim.start === null) anim.start = now;
    const elapsed = now - anim.start;
    let done;
    if (anim.samples) {
      // The sample due now; never backwards, so a late frame skips ahead.
      const last = anim.samples.length - 1;
      anim.k = Math.max(anim.k, Math.min(last, Math.round(elapsed / anim.interval)));
      if (anim.row !== undefined) {
        // A row's fling: its offset, as a row's scroll frame.
        const row = anim.row;
        state.rows[row] = anim.samples[anim.k];
        if (anim.k === last) anim = null;
        else requestFrame();
        rowChanged(row);
        return;
      }
      state.offset[anim.axis] = anim.samples[anim.k];
      done = anim.k === last;
    } else {
      const t = Math.min(1, elapsed / anim.duration);
      const eased = 1 - Math.pow(1 - t, 3); // ease-out cubic
      state.offset[anim.axis] = t >= 1 ? anim.to : anim.from + (anim.to - anim.from) * eased;
      done = t >= 1;
    }
    pump.dirty = true;
    if (done) anim = null;
    else requestFrame();
  }

  function stopMotion() {
    finishUpdate();
    anim = null;
    settleToken++;
    if (wheelTimer) {
      clearTimeout(wheelTimer);
      wheelTimer = 0;
    }
  }

  /** The finger lifted (or the wheel stopped) at velocity v (pt/ms, along
   *  the scroll axis); `input` is the pointer type or "wheel". The daemon
   *  projects the release with the layout's deceleration rate (no
   *  proposedContentOffset is sent), snaps it by the layout's policy (the
   *  vertical layouts scroll freely: the target is the projection, kept
   *  within the content) and plans the motion. */
  async function settle(v, input) {
    if (!state.live) return;
    const token = ++settleToken;
    const generation = state.generation;
    const axis = axisOf(config);
    const offset = { ...state.offset };
    settling++;
    try {
      const snap = await request('layout/scrollEnded', {
        session: SESSION,
        contentOffset: offset,
        velocity: axis === 'x' ? { x: v, y: 0 } : { x: 0, y: v },
        frameInterval: FRAME_INTERVAL_MS,
      });
      if (token !== settleToken || generation !== state.generation) return;
      recordRelease(input, axis, offset, v, snap);
      follow(snap);
    } catch (error) {
      showError(error);
    } finally {
      settling--;
    }
  }

  /** Keeps what a release asked and what the daemon planned (the HUD's
   *  "release", and lastRelease for tests), along `axis`; `section` for a
   *  row's. */
  function recordRelease(input, axis, offset, v, plan, section) {
    state.lastRelease = {
      input,
      axis,
      ...(section === undefined ? {} : { section }),
      contentOffset: offset[axis],
      velocity: v,
      projected: plan.projectedContentOffset[axis],
      target: plan.targetContentOffset[axis],
      targetItem: plan.targetItem,
      policy: plan.policy,
      durationMs: plan.durationMs,
      trajectory: plan.trajectory ? plan.trajectory.map((p) => p[axis]) : null,
    };
    updateHud();
  }

  /** A row was released at velocity v (pt/ms, along the row): the
   *  daemon plans the row's motion by its behaviour (layout/scrollEnded
   *  with `section`) and the page plays the trajectory back, each sample a
   *  row's scroll frame. */
  async function settleRow(section, v, input) {
    if (!state.live) return;
    const token = ++settleToken;
    const generation = state.generation;
    const offset = { x: state.rows[section] || 0, y: 0 };
    settling++;
    try {
      const plan = await request('layout/scrollEnded', {
        session: SESSION,
        section,
        contentOffset: offset,
        velocity: { x: v, y: 0 },
        frameInterval: FRAME_INTERVAL_MS,
      });
      if (token !== settleToken || generation !== state.generation) return;
      recordRelease(input, 'x', offset, v, plan, section);
      const samples = plan.trajectory.map((p) => p.x);
      state.rows[section] = samples[0];
      anim = samples.length > 1 ? { row: section, samples, interval: FRAME_INTERVAL_MS, start: null, k: 0 } : null;
      rowChanged(section);
    } catch (error) {
      showError(error);
    } finally {
      settling--;
    }
  }

  /** The row (a section that scrolls on its own) under a viewport point,
   *  or null: the section of the drawn cell whose frame holds it. */
  function rowAt(clientX, clientY) {
    const rows = rowSections(config);
    if (!rows.size || !picture.bounds) return null;
    const v = view.getBoundingClientRect();
    const x = picture.bounds.x + clientX - v.left - view.clientLeft;
    const y = picture.bounds.y + clientY - v.top - view.clientTop;
    for (const a of picture.elements()) {
      const f = a.frame;
      if (a.kind === 'cell' && rows.has(a.section) && y >= f.y && y <= f.y + f.height) return a.section;
    }
    return null;
  }

  // MARK: input: pointer drags and the wheel

  /** The offsets along the scroll axis a drag or the wheel may reach
   *  without resistance: the content's extent, or everything when the
   *  carousel loops or wraps (the content repeats without end and the
   *  daemon reduces far offsets itself). */
  function offsetRange() {
    const axis = axisOf(config);
    if (state.wraps) return { min: -Infinity, max: Infinity };
    const size = picture.contentSize ? picture.contentSize[axis === 'x' ? 'width' : 'height'] : 0;
    return { min: 0, max: Math.max(0, size - extentOf(config, axis)) };
  }

  /** Whether the session just opened with `c` repeats without end: a
   *  looping cover flow, or a carousel that wraps, which is the daemon's
   *  call when the page leaves wrap to the style (the rotary, cylinder and
   *  wheel families do): its answers then carry laps. */
  function wrapsIn(c) {
    if (c.layout === 'coverFlow') return Boolean(c.loop);
    if (c.layout === 'pager') {
      // The daemon's call: a pager wraps once it has a page.
      const centred = picture.centeredItem;
      return c.pagerWrap === 'on' && ((centred && centred.lap !== undefined) || picture.elements().some((a) => a.lap !== undefined));
    }
    if (c.layout !== 'carousel') return false;
    if (c.carouselWrap !== 'auto') return c.carouselWrap === 'on';
    const centred = picture.centeredItem;
    return (centred !== null && centred.lap !== undefined) || picture.elements().some((a) => a.lap !== undefined);
  }

  /** UIScrollView's rubber band past either end. */
  function rubberBand(x) {
    const { min, max } = offsetRange();
    const w = extentOf(config, axisOf(config));
    const band = (d) => (1 - 1 / ((d * RUBBER_BAND) / w + 1)) * w;
    if (x < min) return min - band(min - x);
    if (x > max) return max + band(x - max);
    return x;
  }

  let drag = null;

  // MARK: drag to reorder: UIKit's interactive movement, through the daemon

  /** The movement in progress: the pointer, where the card was grabbed
   *  (its centre minus the pointer, in content points), the last answer's
   *  target and autoscroll velocity (points per ms). */
  let reorder = null;

  /** The content point under a client point, for the offset being shown. */
  function contentPoint(clientX, clientY) {
    const v = view.getBoundingClientRect();
    return {
      x: clientX - v.left - view.clientLeft + state.offset.x,
      y: clientY - v.top - view.clientTop + state.offset.y,
    };
  }

  /** Where the dragged card's centre goes: the pointer plus the grab. */
  function reorderPosition() {
    const p = contentPoint(reorder.client.x, reorder.client.y);
    return { x: p.x + reorder.grab.x, y: p.y + reorder.grab.y };
  }

  /** Starts dragging the front-most card under the pointer, as the
   *  picture has it (cards take no pointer events of their own), with
   *  layout/beginInteractiveMovement. False over no card. */
  function beginReorder(e) {
    const p = contentPoint(e.clientX, e.clientY);
    const inside = (f) => p.x >= f.x && p.x <= f.x + f.width && p.y >= f.y && p.y <= f.y + f.height;
    const a = picture
      .elements()
      .filter((x) => x.kind === 'cell' && inside(x.frame))
      .reduce((best, x) => (best === null || x.zIndex > best.zIndex ? x : best), null);
    if (!a) return false;
    const centre = { x: a.frame.x + a.frame.width / 2, y: a.frame.y + a.frame.height / 2 };
    reorder = {
      id: e.pointerId,
      client: { x: e.clientX, y: e.clientY },
      grab: { x: centre.x - p.x, y: centre.y - p.y },
      began: null, // the daemon's answer to the begin
      dirty: false,
      ending: false,
      autoscroll: { x: 0, y: 0 },
      target: null,
      last: e.timeStamp,
    };
    const params = { session: SESSION, section: a.section, item: a.item };
    if (a.lap !== undefined) params.lap = a.lap;
    const mine = reorder;
    reorder.began = request('layout/beginInteractiveMovement', params)
      .then((r) => {
        if (!r.began && reorder === mine) reorder = null;
        return r.began;
      })
      .catch((error) => {
        showError(error);
        if (reorder === mine) reorder = null;
        return false;
      });
    try {
      view.setPointerCapture(e.pointerId);
    } catch (_) {
      /* synthetic pointers may not be capturable */
    }
    view.classList.add('reordering');
    return true;
  }

  /** One movement frame: the finger's position out, the preview back (the
   *  others laid out as if the card sat at the target), the target and
   *  the autoscroll velocity kept. */
  function sendReorder() {
    const mine = reorder;
    mine.dirty = false;
    pump.inFlight = mine.began
      .then((began) =>
        began
          ? request('layout/updateInteractiveMovement', { session: SESSION, position: reorderPosition() })
          : null,
      )
      .then((r) => {
        if (!r || reorder !== mine) return;
        mine.target = r.target;
        mine.autoscroll = r.autoscroll;
        render();
      })
      .catch((error) => {
        // A change elsewhere (a button) cancelled the movement.
        showError(error);
        if (reorder === mine) reorder = null;
        view.classList.remove('reordering');
      })
      .finally(() => {
        pump.inFlight = null;
        if (reorder && (reorder.dirty || pump.dirty || autoscrolling())) requestFrame();
      });
  }

  const autoscrolling = () => reorder !== null && (reorder.autoscroll.x !== 0 || reorder.autoscroll.y !== 0);

  /** While the finger rests near an edge, the page scrolls at the daemon's
   *  velocity, within the offsets the content allows. */
  function stepAutoscroll(now) {
    const dt = Math.min(50, Math.max(0, now - reorder.last));
    reorder.last = now;
    if (!autoscrolling() || !dt) return;
    const axis = axisOf(config);
    const { min, max } = offsetRange();
    const next = Math.min(max, Math.max(min, state.offset[axis] + reorder.autoscroll[axis] * dt));
    if (next !== state.offset[axis]) {
      state.offset[axis] = next;
      pump.dirty = true;
      reorder.dirty = true; // the finger is over other content now
    }
  }

  /** The drop: layout/endInteractiveMovement, one batch move, which the
   *  page's list of cards follows; the card lands as `moved` animates. */
  async function endReorder(cancelled) {
    const mine = reorder;
    mine.ending = true;
    view.classList.remove('reordering');
    while (pump.inFlight) await pump.inFlight;
    try {
      if (!(await mine.began)) return;
      const before = picture.bounds;
      if (cancelled) {
        await request('layout/cancelInteractiveMovement', { session: SESSION });
        render();
        return;
      }
      const result = await request('layout/endInteractiveMovement', { session: SESSION });
      for (const m of result.updates.moveItems || []) {
        if (m.from.section === 0 && m.to.section === 0) {
          const cards = state.cards.slice();
          cards.splice(m.to.item, 0, ...cards.splice(m.from.item, 1));
          state.cards = cards;
        }
      }
      state.offset = { x: result.bounds.x, y: result.bounds.y };
      render({ moved: result.moved, bounds: before });
    } catch (error) {
      showError(error);
    } finally {
      if (reorder === mine) reorder = null;
    }
  }

  // MARK: swipe actions: a settings row's buttons, through the daemon

  /**
   * The row swiped or open (one at a time, as in UIKit), or null: its id,
   * where the finger wants it (`want`, the translation sent last being
   * `sent`), the daemon's last answer (`translation`, and `actions`, the
   * buttons' frames in content coordinates), its buttons' elements and its
   * `phase`: 'dragging', 'ending' (released, the answer pending), 'open',
   * 'performed' (a full swipe: being deleted) or 'closing' (sliding shut).
   * The page computes no geometry: the row's content slides by the
   * answered translation and each button stands at its answered frame.
   */
  let swipe = null;
  /** Swipe requests go out one after another, in order (a begin before its
   *  updates, the end after the last one); changes to the session wait. */
  let swipeChain = Promise.resolve();
  let swipePending = 0;

  function swipeRequest(method, params) {
    swipePending++;
    const run = swipeChain.then(() => request(method, { session: SESSION, ...params }));
    swipeChain = run.catch(() => {}).then(() => {
      swipePending--;
    });
    return run;
  }

  /** The row of a list page (its attributes: the settings page's or the
   *  sidebar's) under a client point, or null. */
  function listRowAt(clientX, clientY) {
    if (!picture.bounds) return null;
    const v = view.getBoundingClientRect();
    const x = picture.bounds.x + clientX - v.left - view.clientLeft;
    const y = picture.bounds.y + clientY - v.top - view.clientTop;
    const f = (a) => a.frame;
    return (
      picture
        .elements()
        .find(
          (a) =>
            a.kind === 'cell' &&
            a.id !== undefined &&
            x >= f(a).x &&
            x < f(a).x + f(a).width &&
            y >= f(a).y &&
            y < f(a).y + f(a).height,
        ) || null
    );
  }

  /** A row's buttons, first (destructive) at the edge; drawn once the
   *  daemon answers their frames. */
  function makeButtons(id) {
    return SWIPE_ACTIONS.map((action, k) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = `swipe-action ${action.style}`;
      b.dataset.index = String(k);
      b.dataset.style = action.style;
      b.dataset.row = String(id);
      b.textContent = action.style === 'normal' && state.flagged.has(id) ? 'Unflag' : action.title;
      b.hidden = true;
      return b;
    });
  }

  /**
   * Draws the swipe as the daemon last answered: the row's content moved
   * by `translation`, each button at its frame (less the bounds' origin)
   * under the row's content (the row's zIndex, just before it in the
   * document), rounded where it meets a rounded corner of the row. With
   * `update` (a batch's answer) a row that is gone takes its buttons with
   * it.
   */
  function drawSwipe(update) {
    const mine = swipe;
    if (!mine) return;
    const row = nodes.get(`row-${mine.id}`);
    const a = picture.byId(mine.id);
    if (!row || !a) {
      if (update || mine.phase === 'performed') dropSwipe(mine, true);
      else for (const b of mine.buttons) b.hidden = true; // scrolled away
      return;
    }
    const content = row.querySelector('.row-content');
    content.style.transform = mine.translation ? `translateX(${mine.translation}px)` : '';
    row.dataset.translation = String(mine.translation);
    const bounds = picture.bounds;
    const r = sectionRadii.get(a.section) || 0;
    const near = (x, y) => Math.abs(x - y) < 1e-6;
    mine.buttons.forEach((b, k) => {
      const f = mine.actions[k];
      b.hidden = !f; // past the full-swipe threshold the first alone fills the row
      if (!f) return;
      const s = b.style;
      s.left = `${f.x - bounds.x}px`;
      s.top = `${f.y - bounds.y}px`;
      s.width = `${f.width}px`;
      s.height = `${f.height}px`;
      s.zIndex = row.style.zIndex;
      const leading = near(f.x, a.frame.x);
      const trailing = near(f.x + f.width, a.frame.x + a.frame.width);
      const mask = (a.cornerMask || []).filter((c) => (c.endsWith('Leading') ? leading : trailing));
      s.borderRadius = cornerRadii(mask, r);
      if (!b.isConnected || !(b.compareDocumentPosition(row) & Node.DOCUMENT_POSITION_FOLLOWING)) row.before(b);
    });
  }

  /** Forgets the swipe: its buttons go (fading out with a deleted row) and
   *  the row's content is back in place. */
  function dropSwipe(mine, fade = false) {
    if (!fade) {
      // (A deleted row's content may finish sliding while it fades.)
      clearTimeout(mine.timer);
      mine.timer = 0;
      view.classList.remove('swipe-settling');
    }
    for (const b of mine.buttons) {
      if (fade && b.isConnected && !b.hidden) fadeOut(b);
      else b.remove();
    }
    const row = nodes.get(`row-${mine.id}`);
    if (row && !fade) {
      row.querySelector('.row-content').style.transform = '';
      row.dataset.translation = '0';
    }
    if (swipe === mine) swipe = null;
  }

  /** Slides the row to `translation` (its buttons to `actions`) as the
   *  release or a close puts it, then `then()`. */
  function slideSwipe(mine, translation, actions, then) {
    clearTimeout(mine.timer);
    view.classList.add('swipe-settling');
    mine.translation = translation;
    if (actions) mine.actions = actions;
    drawSwipe();
    mine.timer = setTimeout(() => {
      mine.timer = 0;
      view.classList.remove('swipe-settling');
      if (then) then();
    }, SWIPE_MS + 40);
  }

  function failSwipe(mine, error) {
    showError(error);
    if (swipe === mine) dropSwipe(mine);
  }

  /** A sideways drag began on row `a`: layout/beginSwipe with the row's
   *  actions. On the open row it goes on from where the row rests (as the
   *  daemon does); answers the translation the finger starts from. */
  function beginSwipe(a) {
    if (swipe && swipe.id !== a.id) dropSwipe(swipe);
    if (!swipe) {
      swipe = {
        id: a.id,
        phase: null,
        translation: 0,
        actions: [],
        buttons: makeButtons(a.id),
        want: 0,
        sent: null,
        sending: false,
        timer: 0,
      };
    }
    const mine = swipe;
    const base = mine.phase === 'open' ? mine.translation : 0;
    clearTimeout(mine.timer);
    mine.timer = 0;
    view.classList.remove('swipe-settling');
    mine.phase = 'dragging';
    mine.want = base;
    mine.sent = null;
    const actions = SWIPE_ACTIONS.map(({ width, style }) => ({ width, style }));
    swipeRequest('layout/beginSwipe', { id: a.id, edge: 'trailing', actions }).catch((error) => failSwipe(mine, error));
    return base;
  }

  /** The finger moved: the row's translation (signed like the pointer's x,
   *  from the press) goes out, one layout/updateSwipe at a time. */
  function moveSwipe(translation) {
    swipe.want = translation;
    pumpSwipe();
  }

  function pumpSwipe() {
    const mine = swipe;
    if (!mine || mine.phase !== 'dragging' || mine.sending || mine.want === mine.sent) return;
    mine.sending = true;
    mine.sent = mine.want;
    swipeRequest('layout/updateSwipe', { translation: mine.sent })
      .then((r) => {
        if (swipe !== mine || (mine.phase !== 'dragging' && mine.phase !== 'ending')) return;
        mine.translation = r.translation;
        mine.actions = r.actions;
        drawSwipe();
      })
      .catch(() => {}) // the begin's failure says why
      .finally(() => {
        mine.sending = false;
        pumpSwipe();
      });
  }

  /**
   * The finger lifted at `velocity` (pt/ms, signed like the translation):
   * the last position, then layout/endSwipe, which says where the row
   * rests. Open or performed, the buttons' rest frames are what
   * layout/updateSwipe answers at that translation; a full swipe then
   * deletes the row.
   */
  async function endSwipe(velocity) {
    const mine = swipe;
    if (!mine || mine.phase !== 'dragging') return;
    mine.phase = 'ending';
    const last = mine.want !== mine.sent ? swipeRequest('layout/updateSwipe', { translation: mine.want }) : null;
    mine.sent = mine.want;
    const end = swipeRequest('layout/endSwipe', { velocity });
    try {
      if (last) {
        const r = await last;
        if (swipe === mine && mine.phase === 'ending') {
          mine.translation = r.translation;
          mine.actions = r.actions;
          drawSwipe();
        }
      }
      const done = await end;
      if (swipe !== mine || mine.phase !== 'ending') return; // closed meanwhile
      if (done.state === 'closed') {
        mine.phase = 'closing';
        slideSwipe(mine, done.translation, null, () => dropSwipe(mine));
        return;
      }
      const rest = await swipeRequest('layout/updateSwipe', { translation: done.translation });
      if (swipe !== mine || mine.phase !== 'ending') return;
      mine.phase = done.state === 'performed' ? 'performed' : 'open';
      slideSwipe(mine, rest.translation, rest.actions);
      if (mine.phase !== 'performed') return;
      // The row goes; should the daemon refuse (shown), it closes instead.
      if (!(await deleteSettingsRow(mine.id)) && swipe === mine) {
        mine.phase = 'open';
        closeSwipe();
      }
    } catch (error) {
      failSwipe(mine, error);
    }
  }

  /** Closes the open row (a touch elsewhere, a scroll, a change of the
   *  list): layout/closeSwipe, and its content slides back over its
   *  buttons, which then go (at once when not `animated`). */
  function closeSwipe(animated = true) {
    const mine = swipe;
    if (!mine || mine.phase === 'closing') return swipeChain;
    mine.phase = 'closing';
    const closed = swipeRequest('layout/closeSwipe', {}).catch(showError);
    if (animated) slideSwipe(mine, 0, null, () => dropSwipe(mine));
    else dropSwipe(mine);
    return closed;
  }

  /** A tap on a button: the destructive one deletes the row, the other
   *  flags it (the page's own data) and closes. */
  view.addEventListener('click', (e) => {
    const b = e.target instanceof Element ? e.target.closest('.swipe-action') : null;
    if (!b || !swipe || b.dataset.row !== String(swipe.id) || swipe.phase !== 'open') return;
    const id = swipe.id;
    if (SWIPE_ACTIONS[Number(b.dataset.index)].style === 'destructive') {
      deleteSettingsRow(id);
      return;
    }
    if (state.flagged.has(id)) state.flagged.delete(id);
    else state.flagged.add(id);
    closeSwipe();
    render();
  });

  const swipeBusy = () =>
    swipePending > 0 || (swipe !== null && (swipe.timer !== 0 || !['open', 'performed'].includes(swipe.phase)));

  view.addEventListener('pointerdown', (e) => {
    if (!e.isPrimary || (e.pointerType === 'mouse' && e.button !== 0) || !state.live) return;
    // A swipe's button takes its own tap (its click).
    if (e.target instanceof Element && e.target.closest('.swipe-action')) return;
    e.preventDefault();
    stopMotion();
    const settings = config.layout === 'settings';
    const sidebar = config.layout === 'sidebar';
    // A click in the sidebar gives it the keyboard (the press's default,
    // prevented above, would have).
    if (sidebar) view.focus({ preventScroll: true });
    if (!settings && !sidebar && $('reorder').checked && !reorder && beginReorder(e)) return;
    // On the settings page a press on a row may become its swipe; a press
    // anywhere but on the open row closes that, as a touch elsewhere does.
    const swipeRow = settings ? listRowAt(e.clientX, e.clientY) : null;
    if (swipe && (!swipeRow || swipeRow.id !== swipe.id)) closeSwipe();
    const axis = axisOf(config);
    const at = (p) => (axis === 'x' ? p.clientX : p.clientY);
    drag = {
      id: e.pointerId,
      type: e.pointerType,
      axis,
      at,
      p0: at(e),
      offset0: state.offset[axis],
      samples: [{ t: e.timeStamp, p: at(e) }],
      // Over a row, the first few points of movement decide: sideways
      // scrolls the row, along the page scrolls the page (as UIKit's
      // orthogonal scroll views take horizontal pans).
      row: rowAt(e.clientX, e.clientY),
      swipeRow,
      swiping: false,
      // In the sidebar a press on a row that does not move is a click.
      tapRow: sidebar ? listRowAt(e.clientX, e.clientY) : null,
      start: { x: e.clientX, y: e.clientY },
      decided: false,
    };
    drag.decided = drag.row === null && drag.swipeRow === null && drag.tapRow === null;
    try {
      view.setPointerCapture(e.pointerId);
    } catch (_) {
      /* synthetic pointers may not be capturable */
    }
    view.classList.add('dragging');
  });

  view.addEventListener('pointermove', (e) => {
    if (reorder && e.pointerId === reorder.id && !reorder.ending) {
      reorder.client = { x: e.clientX, y: e.clientY };
      reorder.dirty = true;
      requestFrame();
      return;
    }
    if (!drag || e.pointerId !== drag.id) return;
    if (!drag.decided) {
      const dx = e.clientX - drag.start.x;
      const dy = e.clientY - drag.start.y;
      if (Math.max(Math.abs(dx), Math.abs(dy)) < 6) return;
      drag.decided = true;
      if (Math.abs(dx) > Math.abs(dy) && drag.row !== null) {
        // The row takes it: its offset follows the finger sideways.
        drag.axis = 'x';
        drag.at = (p) => p.clientX;
        drag.p0 = drag.start.x;
        drag.offset0 = state.rowsDrawn[drag.row] || 0;
        drag.samples = [{ t: e.timeStamp, p: e.clientX }];
      } else if (Math.abs(dx) > Math.abs(dy) && drag.swipeRow !== null) {
        // A swipe: the row's translation follows the finger from the press.
        drag.swiping = true;
        drag.axis = 'x';
        drag.at = (p) => p.clientX;
        drag.p0 = drag.start.x;
        drag.offset0 = beginSwipe(drag.swipeRow);
        drag.samples = [{ t: e.timeStamp, p: e.clientX }];
      } else {
        drag.row = null;
        // A scroll: it closes the open row.
        if (drag.swipeRow !== null && swipe) closeSwipe();
        drag.swipeRow = null;
      }
    }
    const events = typeof e.getCoalescedEvents === 'function' ? e.getCoalescedEvents() : [];
    for (const c of events.length ? events : [e]) drag.samples.push({ t: c.timeStamp, p: drag.at(c) });
    const old = e.timeStamp - 4 * VELOCITY_WINDOW_MS;
    while (drag.samples.length > 2 && drag.samples[0].t < old) drag.samples.shift();
    if (drag.swiping) {
      moveSwipe(drag.offset0 + (drag.at(e) - drag.p0));
      return;
    }
    if (drag.row !== null) {
      // The daemon clamps a row's offset to its range.
      state.rows[drag.row] = drag.offset0 - (drag.at(e) - drag.p0);
      rowChanged(drag.row);
      return;
    }
    state.offset[drag.axis] = rubberBand(drag.offset0 - (drag.at(e) - drag.p0));
    offsetChanged();
  });

  /** Points per ms of the content (against the finger), from the samples of
   *  the last VELOCITY_WINDOW_MS; 0 when the finger rested before lifting. */
  function releaseVelocity(samples, now) {
    const recent = samples.filter((s) => now - s.t <= VELOCITY_WINDOW_MS);
    if (recent.length < 2) return 0;
    const first = recent[0];
    const last = recent[recent.length - 1];
    const dt = last.t - first.t;
    return dt > 0 ? -(last.p - first.p) / dt : 0;
  }

  function endDrag(e) {
    if (reorder && e.pointerId === reorder.id && !reorder.ending) {
      endReorder(e.type === 'pointercancel');
      return;
    }
    if (!drag || e.pointerId !== drag.id) return;
    let v = 0;
    if (e.type === 'pointerup') {
      drag.samples.push({ t: e.timeStamp, p: drag.at(e) });
      v = releaseVelocity(drag.samples, e.timeStamp);
    }
    const input = drag.type;
    const row = drag.decided ? drag.row : null;
    const swiped = drag.swiping;
    const tapped = !drag.decided && drag.swipeRow !== null;
    const clicked = drag.decided ? null : drag.tapRow;
    drag = null;
    view.classList.remove('dragging');
    if (clicked) {
      clickSidebarRow(clicked.id);
      // The press moved nothing; only an offset a stopped bounce left out
      // of range needs settling.
      const { min, max } = offsetRange();
      const at = state.offset[axisOf(config)];
      if (at >= min && at <= max) return;
    }
    if (swiped) {
      // The finger's velocity, signed like the translation.
      endSwipe(-v);
      return;
    }
    if (tapped && swipe) closeSwipe(); // a tap on the open row closes it
    if (row !== null) settleRow(row, v, input);
    else settle(v, input);
  }

  view.addEventListener('pointerup', endDrag);
  view.addEventListener('pointercancel', endDrag);

  let wheelTimer = 0;

  view.addEventListener(
    'wheel',
    (e) => {
      if (!state.live || drag || reorder) return;
      e.preventDefault();
      if (swipe) closeSwipe(); // a scroll closes the open row
      const axis = axisOf(config);
      // Sideways, either wheel axis scrolls; a vertical layout takes the
      // vertical one.
      let d = axis === 'y' || Math.abs(e.deltaX) <= Math.abs(e.deltaY) ? e.deltaY : e.deltaX;
      if (e.deltaMode === 1) d *= 16; // lines
      else if (e.deltaMode === 2) d *= extentOf(config, axis); // pages
      stopMotion();
      const { min, max } = offsetRange();
      state.offset[axis] = Math.min(max, Math.max(min, state.offset[axis] + d));
      offsetChanged();
      wheelTimer = setTimeout(() => {
        wheelTimer = 0;
        settle(0, 'wheel');
      }, WHEEL_IDLE_MS);
    },
    { passive: false },
  );

  // MARK: sessions: open, and re-open for every change of data or layout

  function readForm() {
    const f = form.elements;
    const num = (name) => (f[name].value.trim() === '' ? NaN : Number(f[name].value));
    return {
      layout: f.layout.value,
      count: num('count'),
      itemWidth: num('itemWidth'),
      itemHeight: num('itemHeight'),
      spacing: num('spacing'),
      curve: f.curve.value,
      factor: num('factor'),
      peak: num('peak'),
      minimum: num('minimum'),
      snapPolicy: f.snapPolicy.value,
      decelerationRate: f.decelerationRate.value,
      loop: f.loop.checked,
      tilt: f.tilt.checked,
      maxAngle: num('maxAngle'),
      perspective: num('perspective'),
      device: f.device.value,
      viewportWidth: num('viewportWidth'),
      viewportHeight: num('viewportHeight'),
      gridItemWidth: num('gridItemWidth'),
      gridItemHeight: num('gridItemHeight'),
      lineSpacing: num('lineSpacing'),
      gridInteritemSpacing: num('gridInteritemSpacing'),
      columnCount: num('columnCount'),
      columnSpacing: num('columnSpacing'),
      itemSpacing: num('itemSpacing'),
      placement: f.placement.value,
      carouselStyle: f.carouselStyle.value,
      carouselDirection: f.carouselDirection.value,
      carouselWrap: f.carouselWrap.value,
      carouselItemWidth: num('carouselItemWidth'),
      carouselItemHeight: num('carouselItemHeight'),
      carouselSpacing: num('carouselSpacing'),
      carouselPerspective: num('carouselPerspective'),
      pagerTransformer: f.pagerTransformer.value,
      pagerDirection: f.pagerDirection.value,
      pagerWrap: f.pagerWrap.value,
      pagerDistance: f.pagerDistance.value,
      pagerItemWidth: num('pagerItemWidth'),
      pagerItemHeight: num('pagerItemHeight'),
      pagerSpacing: num('pagerSpacing'),
      settingsAppearance: f.settingsAppearance.value,
    };
  }

  /** The controls' values that are not numbers. */
  const CHOICES = new Set([
    'layout', 'device', 'curve', 'snapPolicy', 'decelerationRate', 'loop', 'tilt', 'placement',
    'carouselStyle', 'carouselDirection', 'carouselWrap',
    'pagerTransformer', 'pagerDirection', 'pagerWrap', 'pagerDistance', 'settingsAppearance',
  ]);
  /** The number controls that may be left empty: the layout's default
   *  (NaN here, left out of the layout object). */
  const OPTIONAL = new Set(['carouselSpacing']);

  function writeForm(c) {
    const f = form.elements;
    for (const [name, value] of Object.entries(c)) {
      if (!f[name]) continue;
      if (f[name].type === 'checkbox') f[name].checked = Boolean(value);
      else f[name].value = Number.isNaN(value) ? '' : String(value);
    }
    syncControls();
  }

  /** The tilt's angle and perspective apply only with the tilt on; each
   *  layout shows its own controls (data-layouts names them). */
  function syncControls() {
    const f = form.elements;
    f.maxAngle.disabled = f.perspective.disabled = !f.tilt.checked;
    const layout = LAYOUTS[f.layout.value] ? f.layout.value : 'coverFlow';
    for (const el of document.querySelectorAll('[data-layouts]')) {
      el.hidden = !el.dataset.layouts.split(' ').includes(layout);
    }
    for (const el of document.querySelectorAll('[data-hide-layouts]')) {
      el.hidden = el.dataset.hideLayouts.split(' ').includes(layout);
    }
  }

  /** A carousel style's name as the page shows it: "invertedRotary" is
   *  "inverted rotary" (the value sent is the daemon's name). */
  const styleLabel = (name) => String(name).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

  /** The style picker: the daemon's styles (capabilities.carouselStyles,
   *  from /info), the preferred one selected. Without any (an older
   *  daemon) the picker offers no 3D carousel. */
  function fillStyles(styles) {
    const list = Array.isArray(styles) ? styles.filter((s) => typeof s === 'string') : [];
    const select = form.elements.carouselStyle;
    select.replaceChildren(...list.map((name) => new Option(styleLabel(name), name)));
    if (list.includes(PREFERRED_CAROUSEL_STYLE)) select.value = PREFERRED_CAROUSEL_STYLE;
    picker.querySelector("input[value='carousel']").closest('label').hidden = list.length === 0;
    return list;
  }

  /** The transformer picker: none, then the daemon's transformers
   *  (capabilities.pagerTransformers, from /info). Without any (an older
   *  daemon) the picker offers no pager. */
  function fillTransformers(names) {
    const list = Array.isArray(names) ? names.filter((s) => typeof s === 'string') : [];
    const select = form.elements.pagerTransformer;
    select.replaceChildren(new Option('none', 'none'), ...list.map((name) => new Option(styleLabel(name), name)));
    picker.querySelector("input[value='pager']").closest('label').hidden = list.length === 0;
    return list;
  }

  /** The settings page's appearance picker: the daemon's list appearances
   *  (capabilities.listAppearances, from /info), the preferred one
   *  selected. Without any (an older daemon) the picker offers no settings
   *  page; without the sidebar appearance or outlines (`methods` lacks
   *  layout/expand), no sidebar. */
  function fillAppearances(names, methods) {
    const list = Array.isArray(names) ? names.filter((s) => typeof s === 'string') : [];
    const select = form.elements.settingsAppearance;
    select.replaceChildren(...list.map((name) => new Option(styleLabel(name), name)));
    if (list.includes(PREFERRED_APPEARANCE)) select.value = PREFERRED_APPEARANCE;
    picker.querySelector("input[value='settings']").closest('label').hidden = list.length === 0;
    picker.querySelector("input[value='sidebar']").closest('label').hidden =
      !list.includes('sidebar') || !Array.isArray(methods) || !methods.includes('layout/expand');
    return list;
  }

  /** The page shows which layout the open session has. */
  function showLayout(c) {
    const label =
      c.layout === 'carousel'
        ? `${LAYOUTS.carousel.label} \u00b7 ${styleLabel(c.carouselStyle)}`
        : c.layout === 'pager'
          ? `${LAYOUTS.pager.label} \u00b7 ${styleLabel(c.pagerTransformer)}`
          : c.layout === 'settings'
            ? `${LAYOUTS.settings.label} \u00b7 ${styleLabel(c.settingsAppearance)}`
            : LAYOUTS[c.layout].label;
    view.dataset.layout = c.layout;
    // The settings page's look follows its appearance (style.css).
    if (c.layout === 'settings') view.dataset.appearance = c.settingsAppearance;
    else delete view.dataset.appearance;
    // The sidebar is a tree that takes the keyboard.
    if (c.layout === 'sidebar') {
      view.tabIndex = 0;
      view.setAttribute('role', 'tree');
    } else {
      view.removeAttribute('tabindex');
      view.removeAttribute('role');
    }
    view.dataset.axis = axisOf(c);
    $('layout-name').textContent = label;
    document.title = `flowlayoutd · ${label}`;
    view.setAttribute(
      'aria-label',
      c.layout === 'coverFlow' ? 'carousel: drag, fling or scroll' : `${label}: drag, fling or scroll`,
    );
  }

  /** The layout object of layout/open: every setting is the daemon's to
   *  apply (the page draws what it answers). */
  function layoutJSON(c) {
    if (c.layout === 'settings') {
      // Everything else is the list's default: 44-point rows, 38-point
      // headers, the margins of the viewport's width, a radius of 10.
      return { type: 'list', appearance: c.settingsAppearance, headerMode: 'supplementary' };
    }
    if (c.layout === 'sidebar') {
      // The list's defaults: 44-point rows, 38-point section titles, an
      // indentation width of 10 a level.
      return { type: 'list', appearance: 'sidebar', headerMode: 'supplementary' };
    }
    if (c.layout === 'chat') {
      const row = Math.max(1, c.viewportWidth - 24);
      return {
        type: 'flow',
        scrollDirection: 'vertical',
        estimatedItemSize: { width: row, height: ROW_HEIGHT },
        headerReferenceSize: { width: c.viewportWidth, height: CHAT_HEADER },
        minimumLineSpacing: CHAT_GAP,
        sectionInset: { top: 4, left: 12, bottom: 8, right: 12 },
      };
    }
    if (isList(c)) {
      return {
        type: 'flow',
        scrollDirection: 'vertical',
        itemSize: { width: Math.max(1, c.viewportWidth - 24), height: ROW_HEIGHT },
        minimumLineSpacing: ROW_GAP,
        sectionInset: { top: 8, left: 12, bottom: 8, right: 12 },
      };
    }
    if (c.layout === 'pager') {
      // FSPagerView's properties; the transformer's spacing is the daemon's.
      const layout = {
        type: 'pager',
        scrollDirection: c.pagerDirection,
        itemSize: { width: c.pagerItemWidth, height: c.pagerItemHeight },
        interitemSpacing: c.pagerSpacing,
        wrap: c.pagerWrap === 'on',
        decelerationDistance: c.pagerDistance === 'automatic' ? 'automatic' : Number(c.pagerDistance),
      };
      if (c.pagerTransformer !== 'none') layout.transformer = c.pagerTransformer;
      return layout;
    }
    if (c.layout === 'carousel') {
      // The style's defaults (spacing, wrap, radius, count, …) are the
      // daemon's: only what a control sets goes out.
      const layout = {
        type: 'carousel',
        style: c.carouselStyle,
        scrollDirection: c.carouselDirection,
        itemSize: { width: c.carouselItemWidth, height: c.carouselItemHeight },
        perspective: c.carouselPerspective,
        snap: { policy: c.snapPolicy, decelerationRate: c.decelerationRate },
      };
      if (!Number.isNaN(c.carouselSpacing)) layout.spacing = c.carouselSpacing;
      if (c.carouselWrap !== 'auto') layout.wrap = c.carouselWrap === 'on';
      return layout;
    }
    if (c.layout === 'flow') {
      return {
        type: 'flow',
        scrollDirection: 'vertical',
        itemSize: { width: c.gridItemWidth, height: c.gridItemHeight },
        minimumLineSpacing: c.lineSpacing,
        minimumInteritemSpacing: c.gridInteritemSpacing,
      };
    }
    if (c.layout === 'compositional') {
      // Each section carries its own layout (sectionsOf); the default is
      // the grid's.
      return { type: 'compositional', section: APP_SECTIONS[APP_SECTIONS.length - 1].layout };
    }
    if (c.layout === 'waterfall') {
      return {
        type: 'waterfall',
        scrollDirection: 'vertical',
        columnCount: c.columnCount,
        minimumColumnSpacing: c.columnSpacing,
        minimumInteritemSpacing: c.itemSpacing,
        placement: c.placement,
      };
    }
    const layout = {
      type: 'coverFlow',
      itemSize: { width: c.itemWidth, height: c.itemHeight },
      minimumLineSpacing: c.spacing,
      // A minimum bounds the curve, which a loop needs (cards far away
      // would otherwise grow without bound, or turn over).
      scale: { curve: c.curve, factor: c.factor, peak: c.peak, minimum: c.minimum },
      snap: { policy: c.snapPolicy, decelerationRate: c.decelerationRate },
    };
    if (c.tilt) layout.rotation = { maxAngle: c.maxAngle, perspective: c.perspective };
    if (c.loop) layout.loop = true;
    return layout;
  }

  let queue = Promise.resolve();

  /** Runs re-opens one after another, never beside a setBounds. */
  function exclusive(job) {
    state.busy++;
    const run = queue.then(job).finally(() => state.busy--);
    queue = run.catch(() => {});
    return run;
  }

  /**
   * Closes the session and opens it again as plan() says, evaluated when
   * the re-open's turn comes: {config, cards, keep: {item} | {offset}}.
   * keep.item puts that item at the centre (where layout/scrollToItem
   * says); keep.offset ({x, y}) keeps the offset. Across the scroll axis
   * the offset is 0: no layout here has a range there.
   * Either way the offset is then settled through layout/scrollEnded, so
   * it is valid for the new layout. Resolves true, or false on an error
   * (shown on the page).
   */
  function reopen(plan) {
    return exclusive(async () => {
      const p = plan();
      if (!p) return true;
      stopMotion();
      state.live = false;
      const generation = ++state.generation;
      if (pump.inFlight) await pump.inFlight;
      await swipeChain;
      if (swipe) dropSwipe(swipe); // the session goes, and its swipe with it
      const next = p.config;
      const axis = axisOf(next);
      try {
        // Item sizes and ids one request may carry (initialize's
        // capabilities.limits.maxItemValuesPerRequest): null, unlimited, by
        // default; a number makes the page send the rest in chunks.
        const limit = (await connection).maxItemValuesPerRequest;
        if (state.sessionOpen) {
          state.sessionOpen = false;
          await request('layout/close', { session: SESSION });
        }
        const kept = p.keep.offset !== undefined ? p.keep.offset : state.offset;
        const offset = { x: 0, y: 0 };
        offset[axis] = kept[axis];
        // A waterfall's cards carry their sizes: all of them go with
        // layout/open, unless the daemon limits a request; then the first
        // chunk does and the rest goes through layout/appendItems.
        const sizes = next.layout === 'waterfall' ? p.cards.map(waterfallSize) : null;
        const chunk = limit === null ? Infinity : limit;
        const opened = {
          session: SESSION,
          // Drag to reorder: no dead zones over gaps and no flicker
          // (nearest), and the page's one list of cards stays one section.
          layout: { ...layoutJSON(next), reorderTargeting: 'nearest', allowsCrossSectionReordering: false },
          bounds: viewportRect(offset, next),
          sections: sectionsOf(next, p.cards.length, sizes && sizes.slice(0, chunk), p.cards),
        };
        // A chat follows its end: it opens there, and stays there as it grows.
        if (next.layout === 'chat') opened.followsEnd = true;
        await request('layout/open', opened);
        state.sessionOpen = true;
        // Another tab: the last release was the other layout's.
        if (config && next.layout !== config.layout) state.lastRelease = null;
        state.rows = {};
        state.rowsDrawn = {};
        config = next;
        state.cards = p.cards;
        state.wraps = wrapsIn(next);
        for (let i = chunk; sizes && i < sizes.length; i += chunk) {
          const widthsAndHeights = [];
          for (const size of sizes.slice(i, i + chunk)) widthsAndHeights.push(size.width, size.height);
          await request('layout/appendItems', { session: SESSION, section: 0, widthsAndHeights });
        }
        showLayout(next);
        view.style.width = `${next.viewportWidth}px`;
        view.style.height = `${next.viewportHeight}px`;
        if (next.layout === 'chat' && p.cards.length) {
          // Self-sizing: every bubble measured from its text, by id.
          await request('layout/setItemSizes', { session: SESSION, sizes: measureChat(p.cards, next) });
        }
        if (next.layout === 'chat') {
          // The end of the content: where followsEnd keeps it.
          offset[axis] = Math.max(0, picture.contentSize.height - next.viewportHeight);
        } else if (p.keep.item !== undefined && p.cards.length > 0) {
          const item = Math.min(Math.max(p.keep.item, 0), p.cards.length - 1);
          const found = await request('layout/scrollToItem', { session: SESSION, section: 0, item });
          offset[axis] = found.contentOffset[axis];
        }
        const snap = await request('layout/scrollEnded', {
          session: SESSION,
          contentOffset: offset,
          velocity: { x: 0, y: 0 },
          frameInterval: FRAME_INTERVAL_MS,
        });
        const target = snap.targetContentOffset[axis];
        if (p.keep.item !== undefined) offset[axis] = target; // jump there: nothing moved on screen
        if (offset.x !== picture.bounds.x || offset.y !== picture.bounds.y) {
          await request('layout/setBounds', { session: SESSION, bounds: viewportRect(offset, next) });
        }
        if (generation !== state.generation) return false;
        state.offset = offset;
        render();
        pump.dirty = false; // the bounds just set are the offset's
        state.live = true;
        clearError();
        if (target !== offset[axis]) follow(snap); // e.g. the last card was deleted
        return true;
      } catch (error) {
        showError(error);
        return false;
      }
    });
  }

  function newCardIds(n) {
    const ids = [];
    for (let i = 0; i < n; i++) ids.push(state.nextCardId++);
    return ids;
  }

  /** The card insert and delete act on: the centred item, or on the App
   *  Store page the featured row's card nearest the row's visible centre. */
  function centredIndex() {
    if (config.layout === 'compositional') {
      let best = null;
      for (const a of picture.elements()) {
        if (a.kind !== 'cell' || a.section !== 0) continue;
        const d = Math.abs(a.center.x - picture.bounds.x - config.viewportWidth / 2);
        if (best === null || d < best.d) best = { d, item: a.item };
      }
      return best ? best.item : 0;
    }
    return picture.centeredItem ? picture.centeredItem.item : 0;
  }

  function valid(c) {
    for (const [name, value] of Object.entries(c)) {
      if (OPTIONAL.has(name) && Number.isNaN(value)) continue;
      if (!CHOICES.has(name) && !Number.isFinite(value)) return `${name} must be a number`;
    }
    if (!Number.isInteger(c.count) || c.count < 0 || c.count > MAX_CARDS) {
      return `cards must be a whole number from 0 to ${MAX_CARDS}`;
    }
    return null;
  }

  /**
   * Runs a change of the open session (a configure, a batch, a snapshot)
   * in its turn: `plan()` first (null: nothing to do), then motion stopped
   * and frames held while `body(plan, before)` runs, `before` being the
   * bounds drawn before it. An error is shown and `recover()` called.
   * Resolves with body's value, or false on an error or with no session.
   */
  function change(plan, body, recover = () => {}) {
    return exclusive(async () => {
      if (!state.sessionOpen) return false;
      const p = plan();
      if (!p) return true;
      stopMotion();
      state.live = false;
      if (pump.inFlight) await pump.inFlight;
      await swipeChain;
      try {
        const ok = await body(p, picture.bounds);
        clearError();
        return ok;
      } catch (error) {
        showError(error);
        recover();
        return false;
      } finally {
        pump.dirty = false;
        state.live = state.sessionOpen;
      }
    });
  }

  /**
   * Changes the open vertical layout in place: layout/configure with the
   * fields `fields` (a partial layout object, e.g. {columnCount: 3}). The
   * daemon relayouts and anchors (the first visible item stays where it
   * was); its answer is a delta like any other, drawn animated: cards glide
   * to their new frames. Resolves true, or false on an error (shown; the
   * session is as it was).
   */
  function configure(next, fields) {
    return change(
      () => fields,
      async (layout, before) => {
        if (swipe) await closeSwipe(false); // a new appearance: the open row closes
        const result = await request('layout/configure', { session: SESSION, layout });
        config = next;
        showLayout(next);
        state.offset = { x: result.bounds.x, y: result.bounds.y };
        render({ moved: [], bounds: before });
        return true;
      },
    );
  }

  /** The layout fields to configure in place when only the open vertical
   *  layout's own controls changed, else null (a re-open). */
  function configurable(previous, next) {
    const fields = CONFIGURABLE[previous.layout];
    if (!fields || next.layout !== previous.layout) return null;
    // Object.is: an empty optional control (NaN) has not changed.
    const changed = Object.keys(next).filter((name) => !Object.is(next[name], previous[name]));
    if (!changed.length || !changed.every((name) => fields[name])) return null;
    return Object.assign({}, ...changed.map((name) => fields[name](next)));
  }

  /** A control changed: re-open with it, keeping the centred card (a
   *  vertical layout's own settings configure the session instead). */
  async function applyForm() {
    const previous = config;
    const next = readForm();
    const problem = valid(next);
    if (problem) {
      showError(problem);
      writeForm(previous);
      return;
    }
    const fields = configurable(previous, next);
    if (fields) {
      if (!(await configure(next, fields))) writeForm(previous); // the daemon refused: go back
      return;
    }
    const ok = await reopen(() => {
      const cards = state.cards.slice(0, next.count);
      cards.push(...newCardIds(next.count - cards.length));
      // The settings page and the sidebar open at their top, and keep
      // their offset when only the viewport changes (the sidebar its tree
      // as it is, folders open or closed, and its focus).
      if (next.layout === 'settings' || next.layout === 'sidebar') {
        const offset = previous.layout === next.layout ? { ...state.offset } : { x: 0, y: 0 };
        return { config: next, cards, keep: { offset } };
      }
      return { config: next, cards, keep: { item: Math.min(centredIndex(), Math.max(0, next.count - 1)) } };
    });
    if (!ok) {
      // The daemon refused the new values (the message says why): go back.
      writeForm(previous);
      const cards = state.cards.slice();
      await reopen(() => ({ config: previous, cards, keep: { item: centredIndex() } }));
      $('error').hidden = false; // keep the reason on screen
    }
  }

  function onChange(e) {
    if (!e.target.name) return;
    const f = form.elements;
    if (e.target.name === 'device' && DEVICES[f.device.value]) {
      // A preset sets the size; a size of no preset is "custom".
      f.viewportWidth.value = String(DEVICES[f.device.value].width);
      f.viewportHeight.value = String(DEVICES[f.device.value].height);
    } else if (e.target.name === 'viewportWidth' || e.target.name === 'viewportHeight') {
      f.device.value = deviceOf(Number(f.viewportWidth.value), Number(f.viewportHeight.value));
    }
    syncControls();
    applyForm();
  }

  // MARK: the URL: a tab and its settings, to share and screenshot

  /** Each control's value as the page starts (the defaults a URL leaves
   *  out), taken once the daemon's style pickers are filled in. */
  let defaults = null;
  const controlValue = (el) => (el.type === 'checkbox' ? String(el.checked) : el.value);
  function captureDefaults() {
    defaults = {};
    for (const el of [...form.elements]) if (el.name && el.name !== 'layout') defaults[el.name] = controlValue(el);
  }
  /** The tabs whose own controls are named after them. */
  const PREFIXED = new Set(['carousel', 'pager', 'settings']);
  /** A control's name in the URL: a carousel's, pager's or settings page's
   *  own controls without their prefix (`transformer` for
   *  pagerTransformer) on that tab. */
  function urlKey(name, layout) {
    const prefix = PREFIXED.has(layout) ? layout : null;
    if (prefix && name.startsWith(prefix) && /[A-Z]/.test(name[prefix.length] || '')) {
      const rest = name.slice(prefix.length);
      return rest[0].toLowerCase() + rest.slice(1);
    }
    return name;
  }
  /** The URL's hash for the page as it is: `#<layout>?<setting>=<value>&…`
   *  with every setting that is not its default; the viewport as
   *  `device=<preset>`, or `viewport=<width>x<height>` when custom. */
  function stateHash() {
    const f = form.elements;
    const layout = f.layout.value;
    const params = [];
    for (const el of [...form.elements]) {
      const name = el.name;
      if (!name || name === 'layout' || name === 'device' || name === 'viewportWidth' || name === 'viewportHeight') continue;
      if (params.some(([k]) => k === urlKey(name, layout))) continue; // radios share a name
      const value = controlValue(el);
      if (!defaults || value !== defaults[name]) params.push([urlKey(name, layout), value]);
    }
    if (f.device.value === 'custom') params.push(['viewport', `${f.viewportWidth.value}x${f.viewportHeight.value}`]);
    else if (!defaults || f.device.value !== defaults.device) params.push(['device', f.device.value]);
    const query = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
    return `#${layout}${query ? `?${query}` : ''}`;
  }
  /** Sets the controls from a hash (`#pager?transformer=cubic`): the
   *  defaults, then what it names. Unknown names and values are left out,
   *  and said on the page. */
  function applyHash(hash) {
    const text = String(hash || '').replace(/^#/, '');
    if (!text) return;
    const [layoutPart, query = ''] = text.split('?');
    const f = form.elements;
    const radio = picker.querySelector(`input[value="${CSS.escape(decodeURIComponent(layoutPart))}"]`);
    const problems = [];
    if (radio && !radio.closest('label').hidden) radio.checked = true;
    else if (layoutPart) problems.push(`no layout "${decodeURIComponent(layoutPart)}"`);
    const layout = f.layout.value;
    for (const [name, value] of Object.entries(defaults || {})) {
      const el = f[name];
      if (el && el.type === 'checkbox') el.checked = value === 'true';
      else if (el) el.value = value;
    }
    for (const pair of query.split('&').filter(Boolean)) {
      const [k, v = ''] = pair.split('=').map((x) => decodeURIComponent(x.replace(/\+/g, ' ')));
      if (k === 'viewport') {
        const m = /^(\d+)x(\d+)$/.exec(v);
        if (!m) { problems.push(`viewport=${v}`); continue; }
        f.viewportWidth.value = m[1];
        f.viewportHeight.value = m[2];
        f.device.value = deviceOf(Number(m[1]), Number(m[2]));
        continue;
      }
      const prefix = PREFIXED.has(layout) ? layout : '';
      const name = [k, prefix + k.charAt(0).toUpperCase() + k.slice(1)].find(
        (n) => n !== 'layout' && f[n] && f[n].name === n,
      );
      const el = name && f[name];
      if (!el) { problems.push(`no setting "${k}"`); continue; }
      if (el.type === 'checkbox') el.checked = v === 'true' || v === '1' || v === 'on';
      else if (el.tagName === 'SELECT' && ![...el.options].some((o) => o.value === v)) problems.push(`${k}=${v}`);
      else el.value = v;
      if (name === 'device' && DEVICES[v]) {
        f.viewportWidth.value = String(DEVICES[v].width);
        f.viewportHeight.value = String(DEVICES[v].height);
      }
    }
    syncControls();
    return problems.length ? `the URL names what the page does not have: ${problems.join(', ')}` : null;
  }
  /** The URL follows the page (without a new history entry). */
  let writtenHash = null;
  function writeHash() {
    if (!defaults) return;
    const hash = stateHash();
    if (hash === location.hash || hash === writtenHash) return;
    writtenHash = hash;
    history.replaceState(null, '', hash);
  }
  window.addEventListener('hashchange', () => {
    if (location.hash === writtenHash) return;
    writtenHash = location.hash;
    const problem = applyHash(location.hash);
    applyForm().then(() => problem && showError(problem));
  });
  form.addEventListener('change', onChange);
  picker.addEventListener('change', onChange); // its radios belong to the form
  syncControls();
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    applyForm();
  });

  /**
   * A data change through layout/performBatchUpdates, as plan() says when
   * its turn comes: {updates, cards, centre?}. The answer is adopted (its
   * bounds are anchored on the centred card) and, with `centre`, the view
   * then scrolls so that that item is centred (where layout/scrollToItem
   * says). Everything is drawn once, animated (see render).
   */
  function mutate(plan) {
    let applied = false;
    return change(
      plan,
      async (p, before) => {
        const result = await request('layout/performBatchUpdates', {
          session: SESSION,
          updates: p.updates,
        });
        state.cards = p.cards;
        config = { ...config, count: p.cards.length };
        writeForm(config);
        applied = true;
        const offset = { x: result.bounds.x, y: result.bounds.y };
        state.offset = { ...offset };
        if (p.centreRow !== undefined) {
          // The featured row scrolls to the inserted card: the row offset
          // layout/scrollToItem answers for it.
          const found = await request('layout/scrollToItem', { session: SESSION, section: 0, item: p.centreRow });
          if (found.rowOffset !== undefined) {
            state.rows[0] = found.rowOffset;
            const r = await request('layout/scrollSection', { session: SESSION, section: 0, offset: found.rowOffset });
            state.rowsDrawn[0] = r.offset;
          }
        }
        if (p.centre !== undefined) {
          // Where the daemon centres it (the nearest copy, in a loop).
          const found = await request('layout/scrollToItem', {
            session: SESSION,
            section: 0,
            item: p.centre,
          });
          const axis = axisOf(config);
          if (found.contentOffset[axis] !== offset[axis]) {
            offset[axis] = found.contentOffset[axis];
            await request('layout/setBounds', { session: SESSION, bounds: viewportRect(offset, config) });
          }
        }
        state.offset = offset;
        // A carousel that wraps by its style shows laps once it has items.
        state.wraps = wrapsIn(config);
        fadeIds = new Set(result.appearing.map(identity));
        render({ moved: result.moved, bounds: before });
        fadeIds = new Set();
        return true;
      },
      () => {
        if (applied) render(); // the update happened; what followed did not
      },
    );
  }

  /** Inserts a card at the centred index; it fades in while the cards
   *  after it make room. The carousels then centre it; a vertical layout
   *  stays where the daemon anchored it (the first visible item in place). A
   *  waterfall card brings its size (its aspect ratio). */
  function insertAtCentre() {
    if (isList(config)) return config.layout === 'chat' ? receive() : insertRow();
    return mutate(() => {
      const at = state.cards.length ? centredIndex() : 0;
      const cards = state.cards.slice();
      const [id] = newCardIds(1);
      cards.splice(at, 0, id);
      const insert = { section: 0, item: at };
      if (config.layout === 'waterfall') insert.size = waterfallSize(id);
      return {
        updates: { insertItems: [insert], itemCounts: itemCountsOf(config, cards.length) },
        cards,
        centre: ['coverFlow', 'carousel', 'pager'].includes(config.layout) ? at : undefined,
        centreRow: config.layout === 'compositional' ? at : undefined,
      };
    });
  }

  /** Deletes the centred card; it fades out and the next one takes its
   *  place (the daemon's anchoring; in a vertical layout the cards after it
   *  close up). */
  function deleteAtCentre() {
    if (isList(config)) return deleteRow();
    return mutate(() => {
      if (!state.cards.length) return null;
      const at = centredIndex();
      const cards = state.cards.slice();
      cards.splice(at, 1);
      return {
        updates: { deleteItems: [{ section: 0, item: at }], itemCounts: itemCountsOf(config, cards.length) },
        cards,
      };
    });
  }

  /**
   * A data change sent as a snapshot (layout/applySnapshot): plan() gives
   * the new list of ids when its turn comes. The daemon diffs it against
   * the session and answers the delta and what to animate, keyed by id:
   * rows that stay glide to their new places, new ones fade in, gone ones
   * fade out. Resolves true, or false on an error (shown).
   */
  function snapshot(plan) {
    return change(
      () => (isList(config) ? plan(state.cards.slice()) : null),
      async (cards, before) => {
        let sections = [{ id: LIST_SECTION, items: cards }];
        if (config.layout === 'chat') {
          // By day; a new message carries its measured size (keyed by id).
          const known = new Set(state.cards);
          const sizes = new Map(measureChat(cards.filter((id) => !known.has(id)), config).map((m) => [m.id, m.size]));
          const days = chatDays(cards);
          state.pendingChatDays = days.map((d) => d.day);
          sections = days.map((d) => ({
            id: `day-${d.day}`,
            items: d.ids.map((id) => (sizes.has(id) ? { id, size: sizes.get(id) } : id)),
          }));
        }
        const result = await request('layout/applySnapshot', { session: SESSION, sections });
        if (state.pendingChatDays) state.chatDays = state.pendingChatDays;
        state.pendingChatDays = null;
        state.cards = cards;
        state.lastSnapshot = result.updates;
        config = { ...config, count: cards.length };
        writeForm(config);
        state.offset = { x: result.bounds.x, y: result.bounds.y };
        fadeIds = new Set(result.appearing.map(identity));
        render({ moved: result.moved, bounds: before });
        fadeIds = new Set();
        return true;
      },
    );
  }

  /** The row the list's buttons act on: the first one fully in view. */
  function firstVisibleRow() {
    const b = picture.bounds;
    const rows = picture.elements().filter((a) => a.kind === 'cell' && a.frame.y >= b.y);
    if (!rows.length) return 0;
    // Its index in the data (the chat has a section a day).
    const at = rows[0].id !== undefined ? state.cards.indexOf(rows[0].id) : -1;
    return at >= 0 ? at : rows[0].item;
  }

  /** A deterministic shuffle (the page's data is the same run to run): a
   *  few rows change places. */
  function shuffleRows() {
    return snapshot((cards) => {
      let seed = cards.length * 7919 + state.nextCardId;
      const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
      for (let k = 0; k < Math.min(6, cards.length); k++) {
        const i = Math.floor(next() * cards.length);
        const j = Math.floor(next() * cards.length);
        [cards[i], cards[j]] = [cards[j], cards[i]];
      }
      state.nextCardId++;
      return cards;
    });
  }
  const insertRow = () =>
    snapshot((cards) => {
      cards.splice(firstVisibleRow() + 1, 0, ...newCardIds(1));
      return cards;
    });
  const deleteRow = () =>
    snapshot((cards) => {
      if (!cards.length) return null;
      cards.splice(firstVisibleRow() + 1 < cards.length ? firstVisibleRow() + 1 : 0, 1);
      return cards;
    });
  const moveRowToTop = () =>
    snapshot((cards) => {
      if (cards.length < 2) return null;
      const at = Math.min(firstVisibleRow() + 2, cards.length - 1);
      cards.unshift(...cards.splice(at, 1));
      return cards;
    });
  /** A chat: a message arrives at the end; history comes above the rest. */
  const receive = () => snapshot((cards) => [...cards, ...newCardIds(1)]);
  const loadHistory = () =>
    snapshot((cards) => {
      const older = [];
      for (let k = 5; k > 0; k--) older.unshift(--state.oldestCardId); // oldest first
      return [...older, ...cards];
    });
  state.oldestCardId = 0; // history's ids count down from here

  /**
   * A change of the settings page's rows, sent as a snapshot: plan() gives
   * the new sections ([{id, items}]) when its turn comes. Rows that stay
   * glide to where the answer puts them (their separators and the
   * backgrounds with them), a deleted row fades out where it stands, with
   * its swipe's buttons; a restored one fades in.
   */
  function settingsSnapshot(plan) {
    return change(
      () => (config.layout === 'settings' ? plan(state.settings.map((s) => ({ id: s.id, items: s.items.slice() }))) : null),
      async (sections, before) => {
        const result = await request('layout/applySnapshot', { session: SESSION, sections });
        state.settings = sections;
        state.lastSnapshot = result.updates;
        state.offset = { x: result.bounds.x, y: result.bounds.y };
        fadeIds = new Set((result.appearing || []).map(identity));
        render({ moved: result.moved || [], bounds: before });
        fadeIds = new Set();
        return true;
      },
    );
  }
  /** Deletes a settings row (its swipe's destructive action). */
  const deleteSettingsRow = (id) =>
    settingsSnapshot((sections) => {
      if (!sections.some((s) => s.items.includes(id))) return null;
      return sections.map((s) => ({ id: s.id, items: s.items.filter((x) => x !== id) }));
    });
  /** Brings every deleted row back, where it was. */
  async function restoreSettingsRows() {
    if (swipe) await closeSwipe(false); // the open row would move under its buttons
    return settingsSnapshot(() => settingsData());
  }
  $('settings-restore').addEventListener('click', restoreSettingsRows);

  // MARK: the sidebar: outline sections, expanded and collapsed by id

  /**
   * Expands or collapses sidebar nodes, as plan() says when its turn
   * comes: {method: 'layout/expand' | 'layout/collapse', ids} (null:
   * nothing to do). The answer is a batch's: rows that stay glide to where
   * it puts them, a folder's rows fade in below it or out where they
   * stand, each element found by its id. The page's tree takes the flags;
   * a focused row that a collapse hides hands the focus to its nearest
   * visible ancestor. Resolves true, or false on an error (shown).
   */
  function outlineChange(plan) {
    return change(
      () => (config.layout === 'sidebar' ? plan() : null),
      async ({ method, ids }, before) => {
        const result = await request(method, { session: SESSION, ids });
        for (const id of ids) {
          const found = sidebarFind(id);
          if (found) found.node.expanded = method === 'layout/expand';
        }
        const visible = new Set(sidebarRows().map((r) => r.id));
        for (let f = sidebarFind(state.focus); f && !visible.has(f.node.id); f = f.parent && sidebarFind(f.parent.id)) {
          state.focus = f.parent ? f.parent.id : null;
        }
        state.lastOutline = { method, ids, updates: result.updates };
        state.offset = { x: result.bounds.x, y: result.bounds.y };
        fadeIds = new Set((result.appearing || []).map(identity));
        render({ moved: result.moved || [], bounds: before });
        fadeIds = new Set();
        return true;
      },
    );
  }
  /** Opens or closes one folder (`expand` true or false; by default the
   *  other way round from how it is). */
  const toggleSidebarRow = (id, expand) =>
    outlineChange(() => {
      const found = sidebarFind(id);
      if (!found || !found.node.children.length) return null;
      const want = expand === undefined ? !found.node.expanded : Boolean(expand);
      if (want === found.node.expanded) return null;
      return { method: want ? 'layout/expand' : 'layout/collapse', ids: [id] };
    });
  /** Every folder open, or every one closed: one request with the ids of
   *  those that change, hidden ones included (they only take the flag). */
  function setEveryFolder(expand) {
    return outlineChange(() => {
      const ids = [];
      const walk = (nodes) => {
        for (const n of nodes) {
          if (n.children.length && n.expanded !== expand) ids.push(n.id);
          walk(n.children);
        }
      };
      for (const s of state.sidebar) walk(s.nodes);
      return ids.length ? { method: expand ? 'layout/expand' : 'layout/collapse', ids } : null;
    });
  }
  const expandAll = () => setEveryFolder(true);
  const collapseAll = () => setEveryFolder(false);

  /** Focuses (selects) a row and scrolls it into view: `position` says
   *  which edge to bring it to when it is out of the picture
   *  (layout/scrollToItem by id), leading when it is above. */
  function focusSidebarRow(id, position = 'trailing') {
    state.focus = id;
    drawFocus();
    exclusive(async () => {
      if (config.layout !== 'sidebar' || !state.live || state.focus !== id) return;
      const a = picture.byId(id);
      const b = picture.bounds;
      if (a && a.frame.y >= b.y && a.frame.y + a.frame.height <= b.y + b.height) return;
      const edge = a ? (a.frame.y < b.y ? 'leading' : 'trailing') : position;
      try {
        const found = await request('layout/scrollToItem', { session: SESSION, id, position: edge });
        if (config.layout !== 'sidebar' || state.focus !== id || found.contentOffset.y === state.offset.y) return;
        stopMotion();
        state.offset = { x: state.offset.x, y: found.contentOffset.y };
        offsetChanged();
      } catch (error) {
        showError(error);
      }
    });
  }

  /** A click on a row focuses it; on a folder's (its triangle or the rest
   *  of the row) it also opens or closes the folder. */
  function clickSidebarRow(id) {
    if (config.layout !== 'sidebar') return;
    focusSidebarRow(id);
    const found = sidebarFind(id);
    if (found && found.node.children.length) toggleSidebarRow(id);
  }

  /**
   * The keyboard, as a macOS or iPadOS sidebar takes it: up and down move
   * the focus between visible rows (across sections); right opens a closed
   * folder, or on an open one moves to its first child; left closes an
   * open folder, or moves to the parent. Decided when its turn comes, so
   * keys pressed during a change apply to the tree after it.
   */
  function sidebarKey(key) {
    return outlineChange(() => {
      const rows = sidebarRows();
      if (!rows.length) return null;
      const at = rows.findIndex((r) => r.id === state.focus);
      if (at < 0) {
        focusSidebarRow(rows[0].id, 'leading');
        return null;
      }
      const { node } = rows[at];
      const folder = node.children.length > 0;
      if (key === 'ArrowDown' && at + 1 < rows.length) focusSidebarRow(rows[at + 1].id, 'trailing');
      if (key === 'ArrowUp' && at > 0) focusSidebarRow(rows[at - 1].id, 'leading');
      if (key === 'ArrowRight' && folder) {
        if (!node.expanded) return { method: 'layout/expand', ids: [node.id] };
        focusSidebarRow(node.children[0].id, 'trailing');
      }
      if (key === 'ArrowLeft') {
        if (folder && node.expanded) return { method: 'layout/collapse', ids: [node.id] };
        const { parent } = sidebarFind(node.id);
        if (parent) focusSidebarRow(parent.id, 'leading');
      }
      return null;
    });
  }
  const SIDEBAR_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight']);
  view.addEventListener('keydown', (e) => {
    if (config.layout !== 'sidebar' || !SIDEBAR_KEYS.has(e.key) || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    sidebarKey(e.key);
  });
  $('sidebar-expand').addEventListener('click', expandAll);
  $('sidebar-collapse').addEventListener('click', collapseAll);

  $('shuffle').addEventListener('click', shuffleRows);
  $('list-insert').addEventListener('click', insertRow);
  $('list-delete').addEventListener('click', deleteRow);
  $('list-move').addEventListener('click', moveRowToTop);
  $('receive').addEventListener('click', receive);
  $('history').addEventListener('click', loadHistory);

  $('insert').addEventListener('click', insertAtCentre);
  $('delete').addEventListener('click', deleteAtCentre);

  // MARK: start

  connection.then(
    (c) => {
      const s = c.serverInfo;
      $('server').textContent = `${s.name || 'flowlayoutd'} ${s.version || ''} via flowlayout web`;
    },
    (error) => {
      $('server').textContent = 'no bridge: run `flowlayout web`';
      console.error(error);
    },
  );

  // Leaving (or reloading) closes the session; `keepalive` lets the
  // request outlive the page (the client calls fetch before it returns, so
  // the request leaves from this handler). Nobody reads the answer.
  window.addEventListener('pagehide', () => {
    if (!state.sessionOpen || !client) return;
    state.sessionOpen = false;
    state.live = false;
    client.request('layout/close', { session: SESSION }, { keepalive: true }).catch(() => {});
  });
  // Back from the back-forward cache: open again where it was.
  window.addEventListener('pageshow', (e) => {
    if (e.persisted && !state.sessionOpen) {
      reopen(() => ({ config, cards: state.cards.slice(), keep: { offset: { ...state.offset } } }));
    }
  });

  // The style picker is filled in from the daemon's capabilities first;
  // the first session opens with the controls as they then are.
  const styles = connection.then((c) => {
    fillTransformers(c.capabilities.pagerTransformers);
    fillAppearances(c.capabilities.listAppearances, c.capabilities.methods);
    return fillStyles(c.capabilities.carouselStyles);
  });
  exclusive(() => styles).catch(() => {}); // no bridge: the open below says so
  let urlProblem = null;
  const ready = reopen(() => {
    // The URL's tab and settings (`#pager?transformer=cubic`), over the
    // defaults as the page has them now.
    captureDefaults();
    urlProblem = applyHash(location.hash);
    const first = readForm();
    return { config: first, cards: newCardIds(first.count), keep: { offset: { x: 0, y: 0 } } };
  });

  ready.then(() => urlProblem && showError(urlProblem));

  const copy = (v) => (v === null || v === undefined ? null : JSON.parse(JSON.stringify(v)));

  /** For tests and the console. */
  window.flowlayout = {
    session: SESSION,
    ready,
    /** The visible elements' attributes, in document order. */
    picture: () => copy(picture.elements()),
    /** The carousel styles the style picker offers (the daemon's). */
    carouselStyles: () => [...form.elements.carouselStyle.options].map((o) => o.value),
    /** The transformers the pager picker offers (none, then the daemon's). */
    pagerTransformers: () => [...form.elements.pagerTransformer.options].map((o) => o.value),
    /** The open layout's scroll axis, and whether it repeats without end. */
    axis: () => axisOf(config),
    wraps: () => state.wraps,
    /** The content offset the page is showing or about to show. */
    offset: () => ({ ...state.offset }),
    /** Each row's offset as the daemon last answered it, by section. */
    rows: () => ({ ...state.rowsDrawn }),
    /** The bounds of the daemon's last answer (what is drawn). */
    bounds: () => copy(picture.bounds),
    centeredItem: () => copy(picture.centeredItem),
    /** A request as it is (its answer is not applied to the picture). */
    request: (method, params) => connection.then((c) => c.request(method, params)),
    cards: () => state.cards.slice(),
    config: () => ({ ...config }),
    lastRelease: () => copy(state.lastRelease),
    /** The URL's hash for the page as it is (location.hash follows it). */
    stateHash: () => stateHash(),
    insertAtCentre,
    deleteAtCentre,
    shuffleRows,
    insertRow,
    deleteRow,
    moveRowToTop,
    receive,
    loadHistory,
    /** The movement in progress: its last target, or null. */
    reorderTarget: () => (reorder ? copy(reorder.target) : null),
    /** The batch the last snapshot answered (layout/applySnapshot's updates). */
    lastSnapshot: () => copy(state.lastSnapshot),
    /** The settings page's sections: [{id, items: [row id]}]. */
    settings: () => copy(state.settings),
    /** The list appearances the settings page offers (the daemon's). */
    listAppearances: () => [...form.elements.settingsAppearance.options].map((o) => o.value),
    /** The settings row swiped or open: {id, phase, translation, actions}
     *  as the daemon last answered them, or null. */
    swipe: () =>
      swipe && copy({ id: swipe.id, phase: swipe.phase, translation: swipe.translation, actions: swipe.actions }),
    deleteSettingsRow,
    restoreSettingsRows,
    /** The sidebar's tree as the page keeps it, a section's shaped as
     *  layout/outline answers it: [{id, outline: [{id, expanded, children}]}]. */
    sidebar: () => {
      const tree = (nodes) => nodes.map((n) => ({ id: n.id, expanded: n.expanded, children: tree(n.children) }));
      return state.sidebar.map((s) => ({ id: s.id, outline: tree(s.nodes) }));
    },
    /** The sidebar's rows, top to bottom: [{id, section, item}]. */
    sidebarRows: () => sidebarRows().map(({ id, section, item }) => ({ id, section, item })),
    /** The sidebar's focused (selected) row's id, or null. */
    focus: () => state.focus,
    /** The last expand or collapse: {method, ids, updates}, or null. */
    lastOutline: () => copy(state.lastOutline),
    toggleSidebarRow,
    expandAll,
    collapseAll,
    sidebarKey,
    /** The picture is the daemon's answer for the current offset (a drag
     *  may be holding still). */
    synced: () =>
      state.live &&
      !state.busy &&
      !pump.dirty &&
      !pump.inFlight &&
      !(reorder && reorder.dirty) &&
      !(swipe && (swipe.sending || swipe.want !== swipe.sent)) &&
      drawn(),
    /** Nothing moving, nothing pending, the picture up to date. */
    idle: () =>
      state.live &&
      !state.busy &&
      !drag &&
      !reorder &&
      !anim &&
      !settling &&
      !wheelTimer &&
      !updateTimer &&
      !pump.dirty &&
      !pump.inFlight &&
      !swipeBusy() &&
      drawn(),
  };
})();

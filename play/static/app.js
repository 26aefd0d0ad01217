/* The page of `dungeon-env play`: a seat (/seat/TOKEN), the host (/host/TOKEN) or the replay viewer
 * (/replay). Plain JavaScript, no framework, no build step. The server's JSON is described in
 * play/views.py; the API in play/server.py. */
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const SQ = 36; // one square, in SVG units
const MARGIN = 24; // room for the coordinates
const LABEL_DY = 13; // a name's baseline below its square's centre: clear of the doors on the edge
const MIN_SQUARE = 30; // the smallest square (in screen pixels) the board is drawn at unless zoomed out
const ZOOM_STEP = 1.25;
const SQUARE_LIMITS = [8, 96]; // zooming stops at these square sizes (pixels)
const HERO_COLOURS = ["#2f6fdf", "#1f9e6e", "#8e44c8", "#e07b1a", "#0f9bb0"];
const MONSTER_COLOURS = {
  giant_rat: "#7d6a58",
  goblin: "#5f8f2e",
  goblin_scout: "#86a832",
  hobgoblin: "#3f6d28",
  skeleton: "#9a9484",
  orc: "#b23a2a",
  troll: "#6b4f8a",
  dread_warlock: "#5b2a86",
  cave_wolf: "#5a6470",
  ghoul: "#4f7b72",
  giant_spider: "#3a3a3a",
  tomb_lurker: "#8a3b62",
};
const OUTCOME_WORDS = {
  completed: "Completed",
  failed: "Failed",
  truncated: "Truncated at the turn cap",
};

const STATUS_WORDS = {
  exited: "left the dungeon",
  corpse: "dead",
  corpse_out: "dead, carried out",
  gone: "dead",
};

const $ = (id) => document.getElementById(id);

// ----------------------------------------------------------------------------------- the mode
const PATH = location.pathname.replace(/\/+$/, "");
const MODE = PATH.startsWith("/seat/") ? "seat" : PATH.startsWith("/host/") ? "host" : "replay";
const TOKEN = MODE === "replay" ? null : decodeURIComponent(PATH.split("/")[2] || "");

const page = {
  view: null, // the last view drawn
  story: [], // {n, text, turn} received so far (seat and host)
  busy: false, // an action is on its way
  endDismissed: false,
  replay: null, // {id, steps, turns, step, side, seq}
  zoom: null, // pixels per SVG unit chosen with the zoom buttons; null: as large as fits (fitBoard)
  scale: 1, // pixels per SVG unit now
  shownVersion: null, // the decision the board last scrolled to
  pinned: null, // the card chip whose text stays shown (clicked)
};

// ----------------------------------------------------------------------------------- helpers
function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function s(tag, attrs, ...children) {
  const node = document.createElementNS(SVGNS, tag);
  setAttrs(node, attrs);
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function setAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function words(id) {
  const text = String(id || "").replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function phaseName(phase) {
  const names = { hero_movement: "Heroes' movement", monster_movement: "Monsters' movement" };
  return names[phase] || words(phase);
}

function initials(kind) {
  const parts = String(kind).split("_").filter(Boolean);
  if (parts.length > 1) return parts.slice(0, 2).map((p) => p[0].toUpperCase()).join("");
  const word = parts[0] || "?";
  return word[0].toUpperCase() + (word[1] || "");
}

function monsterColour(kind) {
  if (MONSTER_COLOURS[kind]) return MONSTER_COLOURS[kind];
  let hash = 0;
  for (const ch of String(kind)) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return `hsl(${hash % 360}, 45%, 38%)`;
}

function heroColour(fig) {
  return HERO_COLOURS[(fig.number - 1) % HERO_COLOURS.length];
}

function firstName(name) {
  return String(name).split(" ")[0];
}

function agentName(view, agent) {
  if (!agent) return "nobody";
  if (agent === "dm") return "the Dungeon Master";
  const hero = view.figures.find((f) => f.side === "hero" && f.key === agent);
  return hero ? hero.name : agent;
}

/** One plain line saying what plays a seat (the server's `seat_about`), else the agent's name. */
function seatAbout(view, seat) {
  const about = (view.seat_about || {})[seat];
  if (about) return about;
  const agent = (view.seat_agents || {})[seat];
  if (!agent) return "";
  return agent === "human" ? "a person" : `played by the AI: ${agent}`;
}

async function requestJSON(url, options) {
  const response = await fetch(url, { cache: "no-store", ...options });
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = { error: `the server answered ${response.status} without JSON` };
  }
  return { ok: response.ok, status: response.status, data };
}

function postJSON(url, body) {
  return requestJSON(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}

// ----------------------------------------------------------------------------------- the board
/** Draws `view.board` and `view.figures` on the SVG; `choices` (clickable squares) if given. */
function drawBoard(view, choices) {
  const svg = $("board");
  const board = view.board;
  const W = board.width;
  const H = board.height;
  const dm = view.side === "dm";
  const width = W * SQ + 2 * MARGIN;
  const height = H * SQ + 2 * MARGIN;
  const X = (x) => MARGIN + x * SQ;
  const Y = (y) => MARGIN + y * SQ;
  const known = (x, y) => board.known[y * W + x];
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.dataset.width = W;
  svg.dataset.height = H;
  svg.dataset.side = view.side;
  svg.replaceChildren();

  svg.append(
    s(
      "defs",
      {},
      s(
        "pattern",
        { id: "unrevealed-hatch", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        s("rect", { width: 8, height: 8, fill: "rgba(30, 36, 48, 0.10)" }),
        s("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "rgba(30, 36, 48, 0.22)", "stroke-width": 2 }),
      ),
    ),
  );

  // floor: rooms, corridors, fog
  const floor = s("g", { class: "floor" });
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const sq = y * W + x;
      const isKnown = board.known[sq];
      const kind = board.corridor[sq] ? "corridor" : "room";
      let cls = `sq ${kind}`;
      if (!isKnown) cls += dm ? " unrevealed" : " fog";
      floor.append(
        s("rect", {
          class: cls,
          x: X(x),
          y: Y(y),
          width: SQ,
          height: SQ,
          "data-x": x,
          "data-y": y,
          "data-area": isKnown || dm ? board.area[sq] : null,
          "data-kind": isKnown || dm ? kind : "fog",
          "data-known": isKnown ? "true" : "false",
        }),
      );
    }
  }
  svg.append(floor);
  if (dm) {
    const hatch = s("g", { class: "unrevealed-hatch" });
    for (let sq = 0; sq < W * H; sq++) {
      if (board.known[sq]) continue;
      const x = sq % W;
      const y = Math.floor(sq / W);
      hatch.append(s("rect", { x: X(x), y: Y(y), width: SQ, height: SQ, fill: "url(#unrevealed-hatch)" }));
    }
    svg.append(hatch);
  }

  // features: exits, furniture, blockages, traps
  const features = s("g", { class: "features" });
  for (const sq of board.exits) {
    const x = sq % W;
    const y = Math.floor(sq / W);
    const g = s("g", { class: "exit", "data-x": x, "data-y": y }, s("title", { text: `Exit (stairs) at (${x},${y})` }));
    g.append(s("rect", { class: "exit-base", x: X(x) + 4, y: Y(y) + 4, width: SQ - 8, height: SQ - 8, rx: 3 }));
    for (let k = 0; k < 4; k++) {
      const inset = 7 + k * 2;
      g.append(
        s("line", {
          class: "exit-step",
          x1: X(x) + inset,
          x2: X(x) + SQ - inset,
          y1: Y(y) + 9 + k * 6,
          y2: Y(y) + 9 + k * 6,
        }),
      );
    }
    if (!known(x, y) && !dm) g.classList.add("in-fog");
    features.append(g);
  }
  for (const sq of board.furniture) {
    const x = sq % W;
    const y = Math.floor(sq / W);
    features.append(
      s(
        "g",
        { class: "furniture", "data-x": x, "data-y": y },
        s("title", { text: `${(board.furniture_kinds || {})[sq] || "Furniture"} at (${x},${y})` }),
        s("rect", { x: X(x) + 4, y: Y(y) + 4, width: SQ - 8, height: SQ - 8, rx: 4 }),
        s("line", { x1: X(x) + 8, y1: Y(y) + SQ / 2, x2: X(x) + SQ - 8, y2: Y(y) + SQ / 2 }),
      ),
    );
  }
  for (const sq of board.blockages) {
    const x = sq % W;
    const y = Math.floor(sq / W);
    features.append(
      s(
        "g",
        { class: "blockage", "data-x": x, "data-y": y },
        s("title", { text: `Blocked (rubble) at (${x},${y})` }),
        s("rect", { x: X(x) + 2, y: Y(y) + 2, width: SQ - 4, height: SQ - 4, rx: 3 }),
        s("path", { d: `M${X(x) + 8},${Y(y) + 8}L${X(x) + SQ - 8},${Y(y) + SQ - 8}M${X(x) + SQ - 8},${Y(y) + 8}L${X(x) + 8},${Y(y) + SQ - 8}` }),
      ),
    );
  }
  for (const trap of board.traps) {
    const [x, y] = trap.at;
    const cx = X(x) + SQ / 2;
    const cy = Y(y) + SQ / 2;
    const state = trap.detected ? (trap.armed ? "detected" : "disarmed") : "undetected";
    const what = trap.detected ? "" : " (not found by the heroes)";
    features.append(
      s(
        "g",
        {
          class: `trap ${state}`,
          "data-x": x,
          "data-y": y,
          "data-detected": trap.detected ? "true" : "false",
          "data-armed": trap.armed ? "true" : "false",
        },
        s("title", { text: `Trap: ${trap.name}${trap.armed ? "" : ", disarmed"}${what}` }),
        s("path", { d: `M${cx},${cy - 12}L${cx + 12},${cy + 9}L${cx - 12},${cy + 9}Z` }),
        s("text", { x: cx, y: cy + 6, text: trap.detected ? "!" : "?" }),
      ),
    );
  }
  svg.append(features);

  // walls: the given walls and every edge between two areas that are not both corridors
  const doorEdges = new Set();
  for (const door of board.doors) doorEdges.add(edgeKey(W, door.a, door.b));
  const edges = new Set(board.walls.map(([sq, side]) => `${sq}:${side}`));
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const sq = y * W + x;
      for (const [side, nx, ny] of [
        [1, x + 1, y],
        [2, x, y + 1],
      ]) {
        if (nx >= W || ny >= H) continue;
        const other = ny * W + nx;
        const differ = board.area[sq] !== board.area[other];
        if (differ && !(board.corridor[sq] && board.corridor[other])) edges.add(`${sq}:${side}`);
      }
    }
  }
  const walls = s("g", { class: "walls" });
  for (const key of edges) {
    if (doorEdges.has(key)) continue;
    const [sq, side] = key.split(":").map(Number);
    const x = sq % W;
    const y = Math.floor(sq / W);
    const [nx, ny] = side === 1 ? [x + 1, y] : [x, y + 1];
    const fogged = !dm && !known(x, y) && !(nx < W && ny < H && known(nx, ny));
    const line =
      side === 1
        ? { x1: X(x + 1), y1: Y(y), x2: X(x + 1), y2: Y(y + 1) }
        : { x1: X(x), y1: Y(y + 1), x2: X(x + 1), y2: Y(y + 1) };
    walls.append(s("line", { class: fogged ? "wall fogged" : "wall", ...line, "data-sq": sq, "data-side": side }));
  }
  walls.append(s("rect", { class: "frame", x: MARGIN, y: MARGIN, width: W * SQ, height: H * SQ }));
  svg.append(walls);

  // doors
  const doors = s("g", { class: "doors" });
  for (const door of board.doors) doors.append(drawDoor(door, X, Y));
  svg.append(doors);

  // figures (and, for the DM, the guards still waiting in unrevealed rooms)
  const figures = s("g", { class: "figures" });
  for (const guard of view.board.guards || []) {
    const [x, y] = guard.at;
    const cx = X(x) + SQ / 2;
    const cy = Y(y) + SQ / 2;
    figures.append(
      s(
        "g",
        {
          class: "figure monster waiting",
          "data-x": x,
          "data-y": y,
          "data-kind": guard.kind,
          "data-side": "monster",
          "data-status": "waiting",
        },
        s("title", { text: `${guard.monster}: a guard waiting here until the heroes see the room` }),
        s("rect", { class: "monster-token", x: cx - 13, y: cy - 13, width: 26, height: 26, rx: 6, fill: monsterColour(guard.kind) }),
        s("text", { class: "monster-letters", x: cx, y: cy + 4.5, text: initials(guard.kind) }),
      ),
    );
  }
  for (const fig of view.figures) {
    if (!fig.at) continue;
    figures.append(drawFigure(fig, X(fig.at[0]) + SQ / 2, Y(fig.at[1]) + SQ / 2));
  }
  svg.append(figures);

  // the squares the seat may click
  if (choices && choices.length) {
    const targets = s("g", { class: "targets" });
    const bySquare = new Map();
    for (const choice of choices) {
      if (!choice.square) continue;
      const key = choice.square.join(",");
      if (!bySquare.has(key)) bySquare.set(key, []);
      bySquare.get(key).push(choice);
    }
    for (const [key, list] of bySquare) {
      const [x, y] = key.split(",").map(Number);
      const label = list.map((c) => c.text).join(" / ");
      const target = s(
        "rect",
        {
          class: `target ${list[0].kind}`,
          x: X(x) + 2,
          y: Y(y) + 2,
          width: SQ - 4,
          height: SQ - 4,
          rx: 5,
          tabindex: 0,
          role: "button",
          "aria-label": label,
          "data-x": x,
          "data-y": y,
          "data-kind": list[0].kind,
          "data-actions": list.map((c) => c.action).join(","),
        },
        s("title", { text: label }),
      );
      const pick = (event) => squareClicked(event, list);
      target.addEventListener("click", pick);
      target.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          pick(event);
        }
      });
      targets.append(target);
    }
    svg.append(targets);
  }

  // coordinates along the edges
  const coords = s("g", { class: "coords" });
  for (let x = 0; x < W; x++) {
    coords.append(s("text", { x: X(x) + SQ / 2, y: MARGIN - 8, text: x }));
    coords.append(s("text", { x: X(x) + SQ / 2, y: Y(H) + 16, text: x }));
  }
  for (let y = 0; y < H; y++) {
    coords.append(s("text", { x: MARGIN / 2, y: Y(y) + SQ / 2 + 4, text: y }));
    coords.append(s("text", { x: X(W) + MARGIN / 2, y: Y(y) + SQ / 2 + 4, text: y }));
  }
  svg.append(coords);
  fitLabels(svg);
}

/** Squeezes every name under a token into its own square (less 4 units), so no two labels overlap
 * however long the names and however close the figures stand. */
function fitLabels(svg) {
  for (const label of svg.querySelectorAll("text.hero-name")) {
    let length = 0;
    try {
      length = label.getComputedTextLength();
    } catch (err) {
      length = 0;
    }
    if (length > SQ - 4) {
      label.setAttribute("textLength", SQ - 4);
      label.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  }
}

/** "spent 1 Stamina moving; 2 on the Fight with Bram" for a monster, or "". */
function spentText(fig) {
  const spent = fig.stamina_spent;
  if (!spent) return "";
  const parts = [];
  if (spent.movement) parts.push(`${spent.movement} moving`);
  for (const fight of spent.fights || []) parts.push(`${fight.stamina} on the Fight with ${fight.against}`);
  return parts.length ? `Stamina spent: ${parts.join("; ")}` : "";
}

function edgeKey(W, a, b) {
  const [ax, ay] = a;
  const [bx, by] = b;
  if (ay === by) return `${ay * W + Math.min(ax, bx)}:1`;
  return `${Math.min(ay, by) * W + ax}:2`;
}

function drawDoor(door, X, Y) {
  const [ax, ay] = door.a;
  const [bx, by] = door.b;
  const vertical = ay === by; // the edge between two squares side by side is vertical
  const ex = vertical ? X(Math.max(ax, bx)) : X(ax) + SQ / 2;
  const ey = vertical ? Y(ay) + SQ / 2 : Y(Math.max(ay, by));
  const state = door.secret ? "secret" : door.open ? "open" : "closed";
  const g = s("g", {
    class: `door ${state}`,
    "data-x": ax,
    "data-y": ay,
    "data-x2": bx,
    "data-y2": by,
    "data-open": door.open ? "true" : "false",
    "data-secret": door.secret ? "true" : "false",
  });
  const what = door.secret ? "Secret door (not found by the heroes)" : door.open ? "Open door" : "Closed door";
  g.append(s("title", { text: `${what} between (${ax},${ay}) and (${bx},${by})` }));
  const long = SQ * 0.8;
  const half = long / 2;
  if (door.open && !door.secret) {
    // an open door: a pale gap in the wall between two posts, the leaf swung open into square b
    const posts = vertical
      ? [
          [ex, ey - half],
          [ex, ey + half],
        ]
      : [
          [ex - half, ey],
          [ex + half, ey],
        ];
    const gap = vertical
      ? { x: ex - 4.5, y: ey - half, width: 9, height: long }
      : { x: ex - half, y: ey - 4.5, width: long, height: 9 };
    g.append(s("rect", { class: "sill", ...gap }));
    for (const [px, py] of posts) g.append(s("rect", { class: "post", x: px - 3.5, y: py - 3.5, width: 7, height: 7, rx: 1 }));
    const [hx, hy] = posts[0];
    const into = vertical ? Math.sign(bx - ax) : Math.sign(by - ay);
    const leaf = vertical
      ? { x1: hx, y1: hy, x2: hx + into * long * 0.7, y2: hy }
      : { x1: hx, y1: hy, x2: hx, y2: hy + into * long * 0.7 };
    g.append(s("line", { class: "leaf", ...leaf }));
    return g;
  }
  // a closed (or secret) door: a solid panel across the wall with a bar and a handle on it
  const thick = 11;
  const rect = vertical
    ? { x: ex - thick / 2, y: ey - half, width: thick, height: long }
    : { x: ex - half, y: ey - thick / 2, width: long, height: thick };
  g.append(s("rect", { class: "door-panel", rx: 2, ...rect }));
  const bar = vertical
    ? { x1: ex, y1: ey - half + 3, x2: ex, y2: ey + half - 3 }
    : { x1: ex - half + 3, y1: ey, x2: ex + half - 3, y2: ey };
  g.append(s("line", { class: "door-bar", ...bar }));
  g.append(s("circle", { class: "door-handle", cx: ex, cy: ey, r: 2.6 }));
  return g;
}

function drawFigure(fig, cx, cy) {
  const [x, y] = fig.at;
  const g = s("g", {
    class: `figure ${fig.side} ${fig.status}${fig.acting ? " acting" : ""}`,
    "data-x": x,
    "data-y": y,
    "data-kind": fig.kind,
    "data-side": fig.side,
    "data-key": fig.key,
    "data-status": fig.status,
    "data-acting": fig.acting ? "true" : "false",
  });
  const flags = fig.flags.length ? ` (${fig.flags.join(", ")})` : "";
  const spent = spentText(fig);
  const stats = `Health ${fig.health}/${fig.base_health}, Stamina ${fig.stamina}/${fig.base_stamina}`;
  g.append(
    s("title", { text: `${fig.name}${fig.status === "corpse" ? " (dead)" : ""}: ${stats}${flags}${spent ? `. ${spent}` : ""}` }),
  );
  if (fig.acting) g.append(s("circle", { class: "acting-ring", cx, cy, r: SQ / 2 - 1 }));
  if (fig.status === "corpse") {
    g.append(s("circle", { class: "corpse-token", cx, cy: cy - 5, r: 10 }));
    g.append(s("text", { class: "corpse-mark", x: cx, y: cy - 1, text: "\u271D" }));
    g.append(s("text", { class: "hero-name", x: cx, y: cy + LABEL_DY, text: firstName(fig.name) }));
    return g;
  }
  if (fig.side === "hero") {
    g.setAttribute("data-number", fig.number);
    g.append(s("circle", { class: "hero-token", cx, cy: cy - 5, r: 10.5, fill: heroColour(fig) }));
    g.append(s("text", { class: "hero-number", x: cx, y: cy - 4.5, text: fig.number }));
    g.append(s("text", { class: "hero-name", x: cx, y: cy + LABEL_DY, text: firstName(fig.name) }));
  } else {
    g.append(s("rect", { class: "monster-token", x: cx - 13, y: cy - 13, width: 26, height: 26, rx: 6, fill: monsterColour(fig.kind) }));
    g.append(s("text", { class: "monster-letters", x: cx, y: cy + 4.5, text: initials(fig.kind) }));
    if (fig.flags.includes("asleep")) g.append(s("text", { class: "zzz", x: cx + 12, y: cy - 8, text: "z" }));
  }
  return g;
}

function drawLegend(view) {
  const legend = $("legend");
  const kinds = new Map();
  for (const fig of view.figures) {
    if (fig.side === "monster" && fig.at && !kinds.has(fig.kind)) kinds.set(fig.kind, fig.card);
  }
  for (const guard of view.board.guards || []) if (!kinds.has(guard.kind)) kinds.set(guard.kind, guard.monster);
  const items = [];
  for (const [kind, card] of kinds) {
    items.push(
      h(
        "li",
        { class: "legend-monster", "data-kind": kind },
        h("span", { class: "swatch monster", style: `background:${monsterColour(kind)}` }, initials(kind)),
        card,
      ),
    );
  }
  const key = (cls, text) => h("li", {}, h("span", { class: `swatch ${cls}` }), text);
  items.push(key("room", "Room"), key("corridor", "Corridor"));
  items.push(key(view.side === "dm" ? "unrevealed" : "fog", view.side === "dm" ? "Not yet seen by the heroes" : "Unknown"));
  items.push(key("door-closed", "Closed door"), key("door-open", "Open door"));
  items.push(key("exit", "Exit"), key("furniture", "Furniture"));
  if ((view.board.guards || []).length) items.push(key("waiting", "Guard waiting (DM only)"));
  if (view.board.blockages.length) items.push(key("blockage", "Rubble"));
  if (view.board.traps.length) items.push(key("trap", "Trap"));
  legend.replaceChildren(h("ul", {}, items));
}

// ----------------------------------------------------------------------------------- panels
function drawHeader(view) {
  $("status").hidden = false;
  $("adv-name").textContent = view.adventure.name;
  $("adv-goal").textContent = view.adventure.goal;
  $("adv-goal").title = view.adventure.goal;
  document.title = `${view.adventure.name} · Dungeon`;
  $("st-turn").textContent = `${view.turn} / ${view.max_turns}`;
  $("st-light").textContent = String(view.light);
  $("st-phase").textContent = view.outcome ? OUTCOME_WORDS[view.outcome] || words(view.outcome) : phaseName(view.phase);
  const seats = $("st-seats-box");
  if (MODE === "seat") {
    seats.hidden = false;
    const seatsPlayed = view.seats || [];
    const names = seatsPlayed.map((seat) => (seat === "dm" ? "the Dungeon Master" : agentName(view, seat)));
    const short = seatsPlayed.map((seat) => (seat === "dm" ? "the DM" : firstName(agentName(view, seat))));
    $("st-seats").textContent = names.length > 1 ? `${short.join(", ")} (hot seat)` : names.join("");
    $("st-seats").title = seatsPlayed
      .map((seat, k) => `${seat}: ${names[k]}${seatAbout(view, seat) ? ` (${seatAbout(view, seat)})` : ""}`)
      .join("\n");
  } else if (MODE === "host") {
    seats.hidden = false;
    seats.querySelector("dt").textContent = "You are";
    $("st-seats").textContent = "the host (the DM's view, read only)";
  } else {
    seats.hidden = false;
    seats.querySelector("dt").textContent = "Viewing";
    $("st-seats").textContent = view.side === "dm" ? "the DM's view" : "the heroes' view";
  }
}

function drawFigures(view) {
  const list = $("figure-list");
  const order = view.figures; // heroes first, then monsters in the order this seat first saw them
  const cards = order.map((fig) => {
    const token =
      fig.side === "hero"
        ? h("span", { class: "token hero", style: `background:${heroColour(fig)}` }, fig.number)
        : h("span", { class: "token monster", style: `background:${monsterColour(fig.kind)}` }, initials(fig.kind));
    const where = fig.at ? `(${fig.at[0]},${fig.at[1]})` : STATUS_WORDS[fig.status] || words(fig.status);
    const stats = [bar("Health", fig.health, fig.base_health, "health"), bar("Stamina", fig.stamina, fig.base_stamina, "stamina")];
    if (fig.base_magic > 0 || fig.magic > 0) stats.push(bar("Magic", fig.magic, fig.base_magic, "magic"));
    const chips = [];
    if (fig.status === "corpse" || fig.status === "gone" || fig.status === "corpse_out") {
      chips.push(h("span", { class: "chip dead" }, "dead"));
    }
    for (const flag of fig.flags) chips.push(h("span", { class: "chip flag" }, flag));
    for (const trait of fig.traits || []) chips.push(h("span", { class: "chip trait" }, trait));
    const extra = cardRows(fig);
    const spent = spentText(fig);
    if (spent) extra.push(h("p", { class: "spent" }, spent));
    return h(
      "article",
      {
        class: `fig-card ${fig.side} ${fig.status}${fig.acting ? " acting" : ""}`,
        "data-key": fig.key,
        "data-kind": fig.kind,
      },
      h(
        "header",
        {},
        token,
        h("span", { class: "fig-name" }, fig.name),
        fig.acting ? h("span", { class: "chip acting" }, "acting") : null,
        h("span", { class: "fig-where" }, where),
      ),
      h("div", { class: "stats" }, stats),
      h("p", { class: "profile" }, `Move ${fig.move} · Fight ${fig.fight} · Damage ${fig.damage}`),
      chips.length ? h("p", { class: "chips" }, chips) : null,
      extra,
    );
  });
  list.replaceChildren(...cards);
  const pinned = page.pinned && list.querySelector(`.card-chip[data-key="${page.pinned}"]`);
  if (pinned) showCard(pinned);
  else if (page.pinned) unpinCard();
}

/** A hero's items, spells and abilities as chips that show their card text on hover and on a
 * click or tap (`item_cards`, `spell_cards`, `abilities`; names only if the server sent no cards). */
function cardRows(fig) {
  const rows = [];
  const items = fig.item_cards || (fig.items || []).map((name) => ({ name }));
  const spells = fig.spell_cards || (fig.spells || []).map((name) => ({ name }));
  const abilities = fig.abilities || [];
  const row = (cls, title, chips) => h("p", { class: `${cls} chip-row` }, h("b", {}, `${title}: `), chips);
  if (items.length) {
    rows.push(row("items", "Items", items.map((c, k) => cardChip(fig, "item", k, c.name, c.deck, c.text))));
  }
  if (spells.length) {
    const chips = spells.map((c, k) => cardChip(fig, "spell", k, c.name, c.level ? `level ${c.level}, cast in ${c.casting}` : "", c.text));
    rows.push(row("spells", "Spells", chips));
  }
  if (abilities.length) {
    const detail = (a) => (a.active ? `Active${a.uses ? `, ${a.uses}` : ""}` : "Passive");
    rows.push(row("abilities", "Abilities", abilities.map((a, k) => cardChip(fig, "ability", k, a.name, detail(a), a.text))));
  }
  return rows;
}

function cardChip(fig, kind, k, name, detail, text) {
  const key = `${fig.key}:${kind}:${k}`;
  return h(
    "button",
    {
      type: "button",
      class: `card-chip ${kind}`,
      "data-key": key,
      "data-name": name,
      "data-detail": detail || "",
      "data-text": text || "",
      "aria-expanded": page.pinned === key ? "true" : "false",
      onclick: (event) => {
        event.stopPropagation();
        pinCard(event.currentTarget);
      },
      onmouseenter: (event) => showCard(event.currentTarget),
      onmouseleave: restoreCard,
      onfocus: (event) => showCard(event.currentTarget),
      onblur: restoreCard,
    },
    name,
  );
}

/** Shows a chip's card (name, detail, text) in the pop-up beside it. */
function showCard(chip) {
  const pop = $("card-pop");
  const detail = chip.dataset.detail;
  pop.replaceChildren(
    h("b", { class: "card-name" }, chip.dataset.name),
    detail ? h("span", { class: "card-detail" }, ` (${detail})`) : null,
    h("p", { class: "card-text" }, chip.dataset.text || "No card text."),
  );
  pop.dataset.key = chip.dataset.key;
  pop.hidden = false;
  const rect = chip.getBoundingClientRect();
  const width = Math.min(320, window.innerWidth - 16);
  pop.style.width = `${width}px`;
  pop.style.left = `${Math.max(8, Math.min(window.innerWidth - width - 8, rect.left))}px`;
  const below = rect.bottom + 6;
  pop.style.top = `${below + pop.offsetHeight > window.innerHeight ? Math.max(8, rect.top - pop.offsetHeight - 6) : below}px`;
  chip.setAttribute("aria-describedby", "card-pop");
}

function hideCard() {
  $("card-pop").hidden = true;
}

/** After a hover: the pinned card again, or none. */
function restoreCard() {
  const pinned = page.pinned && document.querySelector(`.card-chip[data-key="${page.pinned}"]`);
  if (pinned) showCard(pinned);
  else hideCard();
}

/** A click or tap keeps the card shown (another click, Escape or a click elsewhere hides it). */
function pinCard(chip) {
  const key = chip.dataset.key;
  for (const other of document.querySelectorAll(".card-chip[aria-expanded='true']")) other.setAttribute("aria-expanded", "false");
  if (page.pinned === key && !$("card-pop").hidden) {
    page.pinned = null;
    hideCard();
    return;
  }
  page.pinned = key;
  chip.setAttribute("aria-expanded", "true");
  showCard(chip);
}

function unpinCard() {
  page.pinned = null;
  hideCard();
}

function bar(label, value, base, cls) {
  const top = Math.max(base, value, 1);
  return h(
    "div",
    { class: `stat ${cls}`, title: `${label} ${value} of ${base}` },
    h("span", { class: "stat-label" }, label),
    h("span", { class: "stat-bar" }, h("span", { class: "stat-fill", style: `width:${(100 * Math.max(0, value)) / top}%` })),
    h("span", { class: "stat-value" }, `${value}/${base}`),
  );
}

/** The choices panel (a seat), or who is being waited for. */
function drawDecision(view) {
  const d = view.decision;
  const title = $("decision-title");
  const text = $("decision-text");
  const box = $("choices");
  const mine = MODE === "seat" && d.yours && !view.outcome;
  $("decision").classList.toggle("yours", mine);
  if (MODE === "replay") {
    const r = page.replay;
    title.textContent = `Step ${r.step} of ${r.steps}`;
    if (view.outcome) text.textContent = "The adventure is over.";
    else text.textContent = d.agent ? `Next: ${agentName(view, d.agent)} — ${d.text}` : d.text;
  } else if (view.outcome) {
    title.textContent = "The adventure is over";
    text.textContent = `${OUTCOME_WORDS[view.outcome] || view.outcome}: ${view.end_reason || ""}`;
  } else if (mine) {
    title.textContent = `Your move: ${agentName(view, d.agent)}`;
    text.textContent = d.text;
  } else {
    const ai = view.seat_agents && d.agent && view.seat_agents[d.agent] !== "human" ? " (AI)" : "";
    title.textContent = `Waiting for ${agentName(view, d.agent)}${ai}…`;
    text.textContent = d.text;
  }
  const who = $("decision-who");
  const about = d.agent && !view.outcome && !mine && MODE !== "replay" ? seatAbout(view, d.agent) : "";
  who.textContent = about ? `${d.agent === "dm" ? "The Dungeon Master" : agentName(view, d.agent)}: ${about}` : "";
  who.hidden = !about;
  const refocus = box.contains(document.activeElement);
  if (!mine) {
    box.replaceChildren();
    return;
  }
  const buttons = d.choices.map((choice, k) =>
    h(
      "button",
      {
        type: "button",
        class: `choice ${choice.kind}${choice.idle ? " idle" : ""}${choice.warning ? " warn" : ""}`,
        "data-action": choice.action,
        "data-kind": choice.kind,
        "data-x": choice.square ? choice.square[0] : null,
        "data-y": choice.square ? choice.square[1] : null,
        "data-idle": choice.idle ? "true" : null,
        "data-warning": choice.warning ? "true" : null,
        title: choice.warning || (choice.idle ? "Legal, but it reaches no square now" : null),
        disabled: page.busy,
        onclick: () => choose(choice),
      },
      k < 9 ? h("kbd", {}, k + 1) : null,
      choice.warning ? h("span", { class: "warn-mark", "aria-hidden": "true" }, "\u26A0") : null,
      choice.text,
    ),
  );
  box.replaceChildren(...buttons);
  if (refocus && buttons.length) buttons[0].focus();
}

/** Appends story lines (or replaces them all); keeps the newest in sight unless the reader has
 * scrolled up. `redraw` (the rest of the page) runs in between, since it changes the panel's size. */
function drawStory(lines, replace, redraw) {
  const list = $("story-lines");
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 60;
  if (redraw) redraw();
  if (replace) list.replaceChildren();
  for (const line of lines) list.append(storyLine(line));
  if (atBottom || replace) list.scrollTop = list.scrollHeight;
}

function storyLine(line) {
  const text = line.text;
  const turn = /^\u2014 Turn (\d+): (.*) \u2014$/.exec(text);
  if (turn && turn[2] === "Turn Start") {
    return h("li", { class: "turn-heading", "data-n": line.n, "data-turn": turn[1] }, `Turn ${turn[1]}`);
  }
  if (turn) return h("li", { class: "phase-heading", "data-n": line.n, "data-turn": turn[1] }, turn[2]);
  return h("li", { class: "line", "data-n": line.n }, text);
}

function drawEnd(view) {
  const end = $("end");
  if (!view.outcome) {
    end.hidden = true;
    page.endDismissed = false;
    return;
  }
  let title = OUTCOME_WORDS[view.outcome] || words(view.outcome);
  if (view.outcome === "failed" && view.end_reason) title = `Failed: ${view.end_reason}`;
  $("end-title").textContent = title;
  end.dataset.outcome = view.outcome;
  $("end-reason").textContent = view.end_reason ? words(view.end_reason) : "";
  $("end-objectives").replaceChildren(
    ...view.objectives.map((o) =>
      h(
        "li",
        { class: o.met ? "met" : "not-met", "data-met": o.met ? "true" : "false" },
        h("span", { class: "mark" }, o.met ? "\u2714" : "\u2718"),
        `${o.text}${o.primary ? "" : " (optional)"} — `,
        h("b", {}, o.met ? "met" : "not met"),
      ),
    ),
  );
  end.hidden = page.endDismissed && MODE !== "replay";
}

/** Sizes the board to the window. The layout takes the height below the header (and the replay
 * bar); the board's view fills the board column less the legend, and the board is drawn as large
 * as fits there (every square in sight), but never with squares under MIN_SQUARE pixels: then the
 * view scrolls, and follows the figure asked to act. The zoom buttons override the size. */
function fitBoard() {
  const layout = $("layout");
  if (window.innerWidth > 1000) {
    const top = layout.getBoundingClientRect().top + window.scrollY;
    layout.style.height = `${Math.max(420, window.innerHeight - top)}px`;
  } else {
    layout.style.height = "";
  }
  sizeBoard();
}

/** The board's size in SVG units (its viewBox). */
function boardBox() {
  const box = $("board").viewBox.baseVal;
  return { width: (box && box.width) || 912, height: (box && box.height) || 1056 };
}

const SIDE_MIN = 340; // the side panel's least width beside the board (style.css #layout)

/** The room the board's view may take, in pixels: the board column (the layout less the side
 * panel) by the layout's height less the legend; a narrow window's full width by 70% of its height. */
function boardRoom() {
  const layout = $("layout");
  const style = getComputedStyle(layout);
  const padX = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
  const padY = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
  const legend = $("board-bar").offsetHeight + 6;
  if (window.innerWidth <= 1000) {
    return { width: layout.clientWidth - padX, height: Math.max(320, window.innerHeight * 0.7 - legend), narrow: true };
  }
  const gap = parseFloat(style.columnGap) || 12;
  return { width: layout.clientWidth - padX - gap - SIDE_MIN, height: layout.clientHeight - padY - legend, narrow: false };
}

/** Pixels per SVG unit that show the whole board in its room. */
function fitScale() {
  const room = boardRoom();
  const { width, height } = boardBox();
  return Math.max(0.05, Math.min(room.width / width, room.height / height));
}

function sizeBoard() {
  const board = $("board");
  const view = $("board-view");
  const { width, height } = boardBox();
  const [low, high] = SQUARE_LIMITS.map((px) => px / SQ);
  for (let k = 0; k < 2; k++) {
    // twice: the legend wraps at the board's width, which changes the room left for the board
    const room = boardRoom();
    const fit = Math.max(0.05, Math.min(room.width / width, room.height / height));
    const scale = Math.min(high, Math.max(low, page.zoom === null ? Math.max(MIN_SQUARE / SQ, fit) : page.zoom));
    page.scale = scale;
    board.style.width = `${width * scale}px`;
    board.style.height = `${height * scale}px`;
    const scrollsY = height * scale > room.height + 0.5;
    const scrollsX = width * scale > room.width + 0.5;
    $("board-wrap").style.width = room.narrow ? "" : `${Math.min(room.width, width * scale + (scrollsY ? 16 : 0))}px`;
    view.style.height = `${Math.min(room.height, height * scale + (scrollsX ? 16 : 0))}px`;
    view.classList.toggle("scrolls", scrollsX || scrollsY);
  }
  $("zoom-label").textContent = `${Math.round(SQ * page.scale)} px`;
}

function zoomBy(factor) {
  const view = $("board-view");
  const before = page.scale;
  // keep the point in the middle of the view where it is
  const mid = [(view.scrollLeft + view.clientWidth / 2) / before, (view.scrollTop + view.clientHeight / 2) / before];
  page.zoom = before * factor;
  sizeBoard();
  view.scrollLeft = mid[0] * page.scale - view.clientWidth / 2;
  view.scrollTop = mid[1] * page.scale - view.clientHeight / 2;
}

function zoomFit() {
  page.zoom = fitScale();
  sizeBoard();
}

/** Scrolls the board's view to the figure asked to act (else the first hero) when the decision is
 * new and that figure is not well in sight. */
function followActing(view) {
  const key = MODE === "replay" && page.replay ? `step ${page.replay.step}` : view.version;
  if (page.shownVersion === key) return;
  page.shownVersion = key;
  const fig = view.figures.find((f) => f.acting && f.at) || view.figures.find((f) => f.side === "hero" && f.at);
  if (!fig) return;
  const box = $("board-view");
  const unit = SQ * page.scale;
  const cx = (MARGIN + (fig.at[0] + 0.5) * SQ) * page.scale;
  const cy = (MARGIN + (fig.at[1] + 0.5) * SQ) * page.scale;
  const inX = cx - unit * 2 >= box.scrollLeft && cx + unit * 2 <= box.scrollLeft + box.clientWidth;
  const inY = cy - unit * 2 >= box.scrollTop && cy + unit * 2 <= box.scrollTop + box.clientHeight;
  if (!inX) box.scrollLeft = cx - box.clientWidth / 2;
  if (!inY) box.scrollTop = cy - box.clientHeight / 2;
}

function drawView(view) {
  page.view = view;
  document.body.dataset.version = view.version;
  drawHeader(view);
  const mine = MODE === "seat" && view.decision.yours && !view.outcome;
  drawBoard(view, mine ? view.decision.choices : null);
  drawLegend(view);
  drawFigures(view);
  drawDecision(view);
  drawEnd(view);
  hideSquareMenu();
  fitBoard();
  followActing(view);
}

// ----------------------------------------------------------------------------------- acting
function squareClicked(event, list) {
  if (page.busy) return;
  if (list.length === 1) {
    choose(list[0]);
    return;
  }
  const menu = $("square-menu");
  menu.replaceChildren(
    h("p", {}, "Choose:"),
    ...list.map((choice) =>
      h(
        "button",
        {
          type: "button",
          class: "square-choice",
          role: "menuitem",
          "data-action": choice.action,
          onclick: () => {
            hideSquareMenu();
            choose(choice);
          },
        },
        choice.text,
      ),
    ),
    h("button", { type: "button", class: "square-cancel", onclick: hideSquareMenu }, "Cancel"),
  );
  const rect = event.target.getBoundingClientRect();
  menu.style.left = `${Math.min(window.innerWidth - 300, rect.right + 6 + window.scrollX)}px`;
  menu.style.top = `${rect.top + window.scrollY}px`;
  menu.hidden = false;
  menu.querySelector("button").focus();
}

function hideSquareMenu() {
  $("square-menu").hidden = true;
}

/** Plays a choice: one with a `warning` (it springs a trap the side knows) only after the player
 * confirms it in the page's dialog. */
async function choose(choice) {
  if (page.busy || !page.view) return;
  if (choice.warning && !(await askConfirm(choice))) return;
  act(choice.action);
}

let confirmDone = null; // resolves the open confirmation, if any

/** The confirmation dialog for `choice`: resolves true (go ahead) or false (cancel). */
function askConfirm(choice) {
  if (confirmDone) confirmDone(false);
  return new Promise((resolve) => {
    const box = $("confirm");
    $("confirm-title").textContent = "A known trap";
    $("confirm-choice").textContent = choice.text;
    $("confirm-warning").textContent = choice.warning;
    $("confirm-yes").textContent = choice.kind === "jump" ? "Jump onto it" : "Step onto it";
    box.dataset.action = choice.action;
    box.hidden = false;
    confirmDone = (ok) => {
      box.hidden = true;
      confirmDone = null;
      resolve(ok);
    };
    $("confirm-no").focus();
  });
}

function setupConfirm() {
  const answer = (ok) => () => confirmDone && confirmDone(ok);
  $("confirm-yes").addEventListener("click", answer(true));
  $("confirm-no").addEventListener("click", answer(false));
  $("confirm").addEventListener("click", (event) => {
    if (event.target.id === "confirm") answer(false)();
  });
}

async function act(action) {
  const view = page.view;
  if (page.busy || !view) return;
  page.busy = true;
  for (const button of document.querySelectorAll("button.choice")) button.disabled = true;
  try {
    const from = storyFrom();
    const url = `/api/seat/${encodeURIComponent(TOKEN)}/act?story=${from}`;
    const answer = await postJSON(url, { decision: view.version, action });
    page.busy = false;
    if (answer.ok) {
      showError("");
      applyView(answer.data, from);
    } else {
      showError(answer.data.error || `refused (${answer.status})`);
    }
  } catch (err) {
    page.busy = false;
    showError(`Could not reach the server (${err.message}); try again.`);
  }
  if (document.querySelector("button.choice:disabled")) drawDecision(page.view);
}

async function save() {
  const msg = $("save-msg");
  const answer = await postJSON(`/api/seat/${encodeURIComponent(TOKEN)}/save`, {}).catch((err) => ({
    ok: false,
    data: { error: err.message },
  }));
  msg.hidden = false;
  msg.classList.toggle("bad", !answer.ok);
  msg.textContent = answer.ok ? `Saved as ${answer.data.file} on the host's disk` : `Not saved: ${answer.data.error}`;
}

// ----------------------------------------------------------------------------------- following the game
/** The story line to ask from: the last one we hold again, to check it is the same game. */
function storyFrom() {
  return Math.max(0, page.story.length - 1);
}

/** Whether `view` (its story asked from line `from`) is of the game whose story we hold: the lines
 * it shares with ours are the same (a host's Load starts another game, with another story). */
function sameGame(view, from) {
  const have = page.story.length;
  if (have === 0) return true;
  const lines = view.story || [];
  if (from >= have) return false;
  if (!lines.length) return false; // we asked from a line we hold: it is gone
  const first = lines[0].n;
  const k = Math.min(have - 1, lines[lines.length - 1].n);
  return first <= k && view.story_total >= k + 1 && lines[k - first].text === page.story[k].text;
}

/** Applies a view from the server (seat or host); false if it is of another game (reloaded). */
function applyView(view, from) {
  if (!sameGame(view, from)) return false;
  const have = page.story.length;
  const fresh = (view.story || []).filter((line) => line.n >= have);
  page.story.push(...fresh);
  const current = !page.view || view.version >= page.view.version;
  drawStory(fresh, have === 0, current ? () => drawView(view) : null);
  return true;
}

async function follow(apiBase) {
  let delay = 0;
  for (;;) {
    const since = page.view ? `since=${page.view.version}&` : "";
    const from = storyFrom();
    const url = `${apiBase}?${since}story=${from}`;
    try {
      const answer = await requestJSON(url);
      $("connection").hidden = true;
      if (!answer.ok) {
        showError(answer.data.error || `the server answered ${answer.status}`);
        if (answer.status === 404) return;
        await sleep(1000);
        continue;
      }
      if (MODE === "host") drawHost(answer.data);
      if (!applyView(answer.data, from)) {
        // another game was loaded: start again from its first story line
        page.story = [];
        page.view = null;
        page.endDismissed = false;
      }
      delay = 0;
    } catch (err) {
      $("connection").hidden = false;
      delay = 1000;
    }
    if (delay) await sleep(delay);
  }
}

// ----------------------------------------------------------------------------------- host
function drawHost(data) {
  const links = $("seat-links");
  const agents = data.seat_agents || {};
  const rows = Object.entries(data.links || {})
    .filter(([name]) => name !== "host")
    .map(([name, path]) => {
      const url = new URL(path, location.origin).href;
      const label = name.startsWith("hero_") ? `${name} (${agentName(data, name)})` : name === "dm" ? "dm (the Dungeon Master)" : name;
      return h("li", { "data-seat": name }, h("span", { class: "seat-name" }, label), h("a", { href: url, target: "_blank", rel: "noopener" }, url));
    });
  const ai = Object.entries(agents)
    .filter(([, agent]) => agent !== "human")
    .map(([name, agent]) =>
      h(
        "li",
        { class: "ai-seat", "data-seat": name },
        h("span", { class: "seat-name" }, name === "dm" ? "dm (the Dungeon Master)" : `${name} (${agentName(data, name)})`),
        h("span", { class: "seat-about" }, `played by the AI: ${agent}${(data.seat_about || {})[name] ? ` — ${data.seat_about[name]}` : ""}`),
      ),
    );
  links.replaceChildren(...rows, ...ai);
  const games = data.saved_games || [];
  const saved = $("saved-games");
  if (!games.length) {
    saved.replaceChildren(h("li", { class: "none" }, "No saved games yet (a seat's Save button writes one)."));
    return;
  }
  saved.replaceChildren(
    ...games.map((name) =>
      h(
        "li",
        { "data-file": name },
        h("span", { class: "file-name" }, name),
        h("button", { type: "button", class: "load", "data-file": name, onclick: () => load(name) }, "Load"),
      ),
    ),
  );
}

async function load(name) {
  const msg = $("load-msg");
  msg.hidden = false;
  msg.textContent = `Loading ${name}…`;
  const answer = await postJSON(`/api/host/${encodeURIComponent(TOKEN)}/load`, { file: name }).catch((err) => ({
    ok: false,
    data: { error: err.message },
  }));
  msg.classList.toggle("bad", !answer.ok);
  msg.textContent = answer.ok ? `Loaded ${name}: the game continues at decision ${answer.data.version}` : `Not loaded: ${answer.data.error}`;
}

// ----------------------------------------------------------------------------------- replay viewer
function openReplayFile(file) {
  const msg = $("replay-msg");
  msg.classList.remove("bad");
  msg.textContent = `Reading ${file.name}…`;
  const reader = new FileReader();
  reader.onerror = () => {
    msg.classList.add("bad");
    msg.textContent = `Could not read ${file.name}`;
  };
  reader.onload = async () => {
    const text = String(reader.result);
    try {
      JSON.parse(text);
    } catch (err) {
      msg.classList.add("bad");
      msg.textContent = `${file.name} is not JSON: ${err.message}`;
      return;
    }
    msg.textContent = `Opening ${file.name} (playing it through)…`;
    const answer = await postJSON("/api/replay", text).catch((err) => ({ ok: false, data: { error: err.message } }));
    if (!answer.ok) {
      msg.classList.add("bad");
      msg.textContent = `Could not open ${file.name}: ${answer.data.error}`;
      return;
    }
    const { id, steps, turns } = answer.data;
    page.replay = { id, steps, turns, step: 0, side: page.replay ? page.replay.side : "heroes", seq: 0, name: file.name };
    msg.textContent = `${file.name}: ${steps} steps, ${turns.length} turns`;
    $("replay-controls").hidden = false;
    fitBoard();
    const slider = $("step-slider");
    slider.max = steps;
    slider.value = 0;
    $("turn-select").replaceChildren(
      ...turns.map(([turn, step]) => h("option", { value: step }, `Turn ${turn} (step ${step})`)),
    );
    showStep(0);
  };
  reader.readAsText(file);
}

async function showStep(step) {
  const r = page.replay;
  if (!r) return;
  r.step = Math.max(0, Math.min(r.steps, step));
  const seq = ++r.seq;
  $("step-slider").value = r.step;
  $("step-label").textContent = `Step ${r.step} of ${r.steps}`;
  $("step-back").disabled = r.step === 0;
  $("step-forward").disabled = r.step === r.steps;
  let turnStep = 0;
  for (const [, first] of r.turns) if (first <= r.step) turnStep = first;
  $("turn-select").value = String(turnStep);
  for (const button of document.querySelectorAll(".toggle button")) {
    button.setAttribute("aria-pressed", button.dataset.side === r.side ? "true" : "false");
  }
  try {
    const answer = await requestJSON(`/api/replay/${encodeURIComponent(r.id)}/${r.step}?side=${r.side}`);
    if (seq !== r.seq) return; // a later step was asked meanwhile
    if (!answer.ok) {
      $("replay-msg").classList.add("bad");
      $("replay-msg").textContent = answer.data.error;
      return;
    }
    const view = answer.data;
    $("layout").dataset.step = r.step;
    $("layout").dataset.side = r.side;
    drawStory(view.story, true, () => drawView(view));
  } catch (err) {
    $("replay-msg").classList.add("bad");
    $("replay-msg").textContent = `Could not reach the server: ${err.message}`;
  }
}

function setupReplay() {
  document.body.classList.add("mode-replay");
  $("replay-bar").hidden = false;
  $("adv-name").textContent = "Replay viewer";
  $("adv-goal").textContent = "Open a replay or saved-game file from your disk.";
  const board = $("board");
  board.setAttribute("viewBox", "0 0 912 1056");
  board.replaceChildren(s("text", { class: "placeholder", x: 456, y: 528, text: "No replay open yet" }));
  $("decision-title").textContent = "Open a replay file";
  $("decision-text").textContent =
    "A replay (dungeon_env.replay.save) or a saved game (a seat's Save button) of any adventure: step through it as the heroes or as the Dungeon Master saw it.";
  $("decision").after($("end"));
  $("end").classList.add("inline");
  $("end-close").hidden = true;
  $("replay-file").addEventListener("change", (event) => {
    const file = event.target.files[0];
    if (file) openReplayFile(file);
  });
  $("step-back").addEventListener("click", () => showStep(page.replay.step - 1));
  $("step-forward").addEventListener("click", () => showStep(page.replay.step + 1));
  $("step-slider").addEventListener("input", (event) => showStep(Number(event.target.value)));
  $("turn-select").addEventListener("change", (event) => showStep(Number(event.target.value)));
  for (const button of document.querySelectorAll(".toggle button")) {
    button.addEventListener("click", () => {
      page.replay.side = button.dataset.side;
      showStep(page.replay.step);
    });
  }
  document.addEventListener("keydown", (event) => {
    if (!page.replay || isTyping(event)) return;
    if (event.key === "ArrowLeft") showStep(page.replay.step - 1);
    else if (event.key === "ArrowRight") showStep(page.replay.step + 1);
  });
}

// ----------------------------------------------------------------------------------- start
function isTyping(event) {
  const tag = event.target && event.target.tagName;
  return tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA";
}

function setupKeys() {
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      hideSquareMenu();
      unpinCard();
      if (confirmDone) confirmDone(false);
    }
    if (isTyping(event) || event.ctrlKey || event.metaKey || event.altKey || confirmDone) return;
    if (event.key === "+" || event.key === "=") zoomBy(ZOOM_STEP);
    else if (event.key === "-") zoomBy(1 / ZOOM_STEP);
    else if (event.key === "0") zoomFit();
    if (/^[1-9]$/.test(event.key)) {
      const button = document.querySelectorAll("#choices button.choice")[Number(event.key) - 1];
      if (button && !button.disabled) {
        event.preventDefault();
        button.click();
      }
    }
  });
}

function start() {
  document.body.dataset.mode = MODE;
  window.addEventListener("resize", fitBoard);
  $("end-close").addEventListener("click", () => {
    page.endDismissed = true;
    $("end").hidden = true;
  });
  document.addEventListener("click", (event) => {
    const menu = $("square-menu");
    if (!menu.hidden && !menu.contains(event.target) && !event.target.classList.contains("target")) hideSquareMenu();
    if (page.pinned && !$("card-pop").contains(event.target) && !event.target.closest(".card-chip")) unpinCard();
  });
  setupKeys();
  setupConfirm();
  $("zoom-in").addEventListener("click", () => zoomBy(ZOOM_STEP));
  $("zoom-out").addEventListener("click", () => zoomBy(1 / ZOOM_STEP));
  $("zoom-fit").addEventListener("click", zoomFit);
  $("figures").addEventListener("scroll", restoreCard);
  if (MODE === "seat") {
    $("save").hidden = false;
    $("save").addEventListener("click", save);
    follow(`/api/seat/${encodeURIComponent(TOKEN)}`);
  } else if (MODE === "host") {
    $("host-panel").hidden = false;
    follow(`/api/host/${encodeURIComponent(TOKEN)}`);
  } else {
    setupReplay();
  }
  fitBoard();
}

start();

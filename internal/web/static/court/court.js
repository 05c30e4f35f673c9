// court.js: the browser client of LLM Court (the courtroom game). Plain JavaScript, no
// framework, no build step. It drives two pages:
//
//   GET /court             court.html       <body data-page="menu">
//   GET /court/games/{id}  court_game.html  <body data-page="game" data-game-id="{id}">
//
// SAFETY: every string a model or a player wrote reaches the page as text only
// (textContent, createTextNode, attribute values through setAttribute on known-safe
// attributes). No innerHTML, no HTML built from strings, no inline script or style, so the
// pages run under: default-src 'none'; script-src 'self'; style-src 'self';
// img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none';
// frame-ancestors 'none'.
//
// Endpoints this client calls (spec court.md section 6, plus our extensions marked *):
//
//   GET  /api/court/cases[?offset=N]       -> {"cases": [public case], "next": N|null}: the
//                                          bundled cases, then the stored ones a page at a time
//
// Who may do what (cli.md, Web): a new game's answer carries its token, which the server
// also sets as a cookie; the page and every call on the game send it as that cookie.
// A refusal for a limit is 429 (or 503 for the budget) with a sentence for the player,
// which the page shows as it is.
//   GET  /api/court/games               *  -> {"games": [{"game_id", "case_id", "title",
//                                             "phase", "outcome": null|"win"|"loss",
//                                             "updated": RFC 3339 time}]}  newest first
//   GET  /api/court/models              *  -> {"models": ["ollama/llama3.1:8b", ...],
//                                             "defaults": {"judge": "...", "prosecutor": "...",
//                                             "witness": "...", "analyzer": "..."}}
//   POST /api/court/cases/generate      *  {"prior": "...", "model": "..."} (model optional)
//                                          -> 200 {"case": {public case}, "draft": id}
//                                          or 4xx/5xx {"errors": ["...", ...]}
//   POST /api/court/cases               *  {"case": {case record}} or {"draft": id} -> 201
//                                          {"case_id": "..."}; 409 for an id that exists
//                                          or 4xx {"errors": [...]}
//   POST /api/court/games                  {"case_id", "seed"?, "models"?, "player"?*:
//                                          {"name", "avatar"}} -> 201 {"game_id", "token",
//                                          "watch_token"}
//   GET  /api/court/games/{id}             -> {"game_id", "case_id", "phase",
//                                             "awaiting_defense", "outcome", "turns"}
//   GET  /api/court/games/{id}/events      SSE: turn, delta, end, awaiting, verdict, error,
//                                          and * reset {} ("discard the streamed text of
//                                          the current turn, it is being asked again").
//                                          * Optional "index" (0-based position of the turn
//                                          in the game) on turn {"speaker","role","phase",
//                                          "index"} and on end {"turn", "index"}: when
//                                          present the client keys turns by it; when
//                                          absent it counts end events from the start of
//                                          the stream, which assumes that a connection
//                                          without Last-Event-ID replays the current
//                                          attempt from its first event. Either way an
//                                          end for a turn already shown replaces it.
//                                          * verdict may carry "summary".
//   POST /api/court/games/{id}/defense     {"text", "to"?, "objection"?*} -> 202; 409 when the
//                                          defense does not have the floor; 400 {"error"}
//   POST /api/court/games/{id}/rest        {} -> 202 (409 when it cannot rest now)
//   POST /api/court/games/{id}/restart  *  -> 202: the trial starts again (new seed); the
//                                          page reloads
//   GET  /api/court/games/{id}/transcript  -> transcript JSON (downloaded as a file); its
//                                          "verdict": {"outcome","justification","summary"}
//                                          fills the verdict screen after a reload
//   POST /api/court/games/{id}/judge    *  {"model"?} -> {"qs": 0.8,
//                                          "by_dimension": {"Behavioral Role Fidelity": 0.9}}
//
// Error bodies: the client shows {"error": "..."} or {"errors": [...]} as plain text, and
// falls back to the HTTP status line.
//
// Options (a model per role, the seed, the player's name and avatar) live in
// localStorage under "llm-court.options".
"use strict";

(() => {
  const MAX_CHARS = 4000;
  const OPTIONS_KEY = "llm-court.options";
  const ROLES = ["judge", "prosecutor", "witness", "analyzer"];
  const PHASES = ["introduction", "interrogation", "closing", "verdict"];
  const SVGNS = "http://www.w3.org/2000/svg";

  // ---- DOM helpers: text only -------------------------------------------------------

  // el builds an element; attrs are set with setAttribute (never event handlers), and
  // children that are strings become text nodes.
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    setAttrs(node, attrs);
    append(node, children);
    return node;
  }

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVGNS, tag);
    setAttrs(node, attrs);
    append(node, children);
    return node;
  }

  function setAttrs(node, attrs) {
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (/^on/i.test(k) || k === "style") throw new Error("refused attribute " + k);
      node.setAttribute(k, v === true ? "" : String(v));
    }
  }

  function append(node, children) {
    for (const c of children.flat()) {
      if (c === undefined || c === null || c === false) continue;
      node.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
    }
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  const $ = (sel, root = document) => root.querySelector(sel);
  const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

  // chars counts what a person sees as characters (code points), as the 4,000 limit does.
  const chars = (s) => Array.from(s).length;

  // ---- API --------------------------------------------------------------------------

  async function api(method, path, body) {
    const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(path, init);
    } catch (err) {
      return { status: 0, ok: false, data: null, message: "The court cannot be reached: " + err.message };
    }
    let data = null;
    const text = await res.text();
    if (text) {
      try { data = JSON.parse(text); } catch { data = null; }
    }
    return { status: res.status, ok: res.ok, data, message: res.ok ? "" : errorText(res, data, text) };
  }

  function errorText(res, data, text) {
    if (data && Array.isArray(data.errors) && data.errors.length) return data.errors.map(String).join("\n");
    if (data && typeof data.error === "string") return data.error;
    if (data && typeof data.message === "string") return data.message;
    if (text && text.length < 300 && !/^\s*</.test(text)) return text.trim();
    return "The server answered " + res.status + " " + res.statusText + ".";
  }

  const gamePath = (id) => "/api/court/games/" + encodeURIComponent(id);

  // ---- options ----------------------------------------------------------------------

  function loadOptions() {
    let o = {};
    try { o = JSON.parse(localStorage.getItem(OPTIONS_KEY) || "{}") || {}; } catch { o = {}; }
    return {
      models: typeof o.models === "object" && o.models ? o.models : {},
      seed: typeof o.seed === "string" ? o.seed : "",
      name: typeof o.name === "string" ? o.name : "",
      avatar: typeof o.avatar === "string" ? o.avatar : "classic",
    };
  }

  function saveOptions(o) {
    try { localStorage.setItem(OPTIONS_KEY, JSON.stringify(o)); } catch { /* private mode: options last this visit */ }
  }

  // ---- portraits --------------------------------------------------------------------

  const SKIN = ["#f2d3b6", "#e3b48e", "#c98d60", "#a06a45", "#74492d", "#f0c8a0"];
  const HAIR = ["#2a1c13", "#553620", "#8b5a2b", "#c8a15c", "#9b9892", "#9c3f25", "#1b1b1f"];
  const CLOTH = ["#41607f", "#6c3f4e", "#4d6a45", "#7b6136", "#5a4a7b", "#2e5052", "#80503a"];
  const BACKDROP = ["#d9c7a3", "#cdbb98", "#d4c1a8", "#c9bfa2"];
  const AVATARS = ["classic", "avatar-a", "avatar-b", "avatar-c", "avatar-d", "avatar-e"];

  // hash is FNV-1a over the string: the same witness always gets the same face.
  function hash(s) {
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h >>> 0;
  }

  // face draws a person from parts picked by the hash of seed: skin, hair style and
  // colour, clothes and one accessory. kind "defense" dresses them for court.
  function face(seed, kind, label) {
    let h = hash(seed);
    const pick = (arr) => { const v = arr[h % arr.length]; h = Math.floor(h / arr.length) ^ (h >>> 7); return v; };
    const skin = pick(SKIN), hair = pick(HAIR), cloth = pick(CLOTH), back = pick(BACKDROP);
    const style = pick([0, 1, 2, 3, 4, 5]);
    const extra = pick([0, 1, 2, 3, 4, 5, 0]);
    const root = svg("svg", { viewBox: "0 0 120 140", class: "portrait-svg", role: "img", "aria-label": label || "portrait" });
    root.appendChild(svg("rect", { width: 120, height: 140, rx: 10, fill: back }));
    root.appendChild(svg("path", { d: "M0 118 H120 V140 H0Z", fill: "#000", opacity: "0.08" }));
    if (style === 1) root.appendChild(svg("path", { d: "M34 60 C30 96 36 110 46 112 L74 112 C84 110 90 96 86 60Z", fill: hair }));
    root.appendChild(svg("path", { d: "M8 140 C12 106 34 97 60 97 C86 97 108 106 112 140Z", fill: kind === "defense" ? "#27364d" : cloth }));
    root.appendChild(svg("path", { d: "M47 98 L60 122 L73 98Z", fill: "#f3eee4" }));
    if (kind === "defense") {
      root.appendChild(svg("path", { d: "M57 103 L63 103 L65 124 L60 130 L55 124Z", fill: cloth }));
      root.appendChild(svg("path", { d: "M47 98 L58 128 L40 110Z M73 98 L62 128 L80 110Z", fill: "#1d293b" }));
    }
    root.appendChild(svg("rect", { x: 52, y: 80, width: 16, height: 20, rx: 4, fill: skin }));
    root.appendChild(svg("rect", { x: 52, y: 84, width: 16, height: 6, fill: "#000", opacity: "0.12" }));
    root.appendChild(svg("ellipse", { cx: 36, cy: 64, rx: 4, ry: 6, fill: skin }));
    root.appendChild(svg("ellipse", { cx: 84, cy: 64, rx: 4, ry: 6, fill: skin }));
    root.appendChild(svg("ellipse", { cx: 60, cy: 62, rx: 24, ry: 28, fill: skin }));
    // eyes, brows, nose, mouth
    root.appendChild(svg("ellipse", { cx: 51, cy: 63, rx: 2.6, ry: 3, fill: "#2a211b" }));
    root.appendChild(svg("ellipse", { cx: 69, cy: 63, rx: 2.6, ry: 3, fill: "#2a211b" }));
    root.appendChild(svg("path", { d: "M45 55 Q51 52 56 55 M64 55 Q69 52 75 55", stroke: hair, "stroke-width": 2.4, fill: "none", "stroke-linecap": "round" }));
    root.appendChild(svg("path", { d: "M60 64 Q57 72 61 73", stroke: "#000", "stroke-opacity": "0.25", "stroke-width": 1.6, fill: "none", "stroke-linecap": "round" }));
    root.appendChild(svg("path", { d: "M53 79 Q60 83 67 79", stroke: "#7a3b2e", "stroke-width": 2, fill: "none", "stroke-linecap": "round" }));
    // hair
    const hairParts = {
      0: ["M35 60 C33 36 48 30 60 30 C74 30 88 36 85 60 C81 46 70 41 60 41 C50 41 39 46 35 60Z"],
      1: ["M35 64 C31 36 47 29 60 29 C74 29 90 36 85 64 C80 48 73 42 60 42 C48 42 40 50 35 64Z"],
      2: ["M36 58 C35 38 48 32 60 32 C73 32 86 38 84 58 C79 45 70 42 60 42 C50 42 41 45 36 58Z", "M60 16 a11 10 0 1 0 0.1 0Z"],
      3: ["M35 62 C34 52 36 47 40 45 L42 58Z M85 62 C86 52 84 47 80 45 L78 58Z"],
      4: ["M36 54 a8 8 0 1 1 8 -10 a9 9 0 0 1 16 -6 a9 9 0 0 1 16 6 a8 8 0 1 1 8 10 C80 46 70 42 60 42 C50 42 40 46 36 54Z"],
      5: ["M35 58 C36 38 46 31 62 31 C78 32 86 42 85 60 C76 52 64 42 52 40 C46 44 40 50 35 58Z"],
    };
    for (const d of hairParts[style]) root.appendChild(svg("path", { d, fill: hair }));
    // accessory
    if (extra === 1) {
      root.appendChild(svg("g", { stroke: "#2b2b2b", "stroke-width": 2, fill: "none" },
        svg("circle", { cx: 51, cy: 63, r: 6.5 }), svg("circle", { cx: 69, cy: 63, r: 6.5 }), svg("path", { d: "M57.5 63 H62.5" })));
    } else if (extra === 2 && style !== 2) {
      root.appendChild(svg("path", { d: "M30 44 H90 L84 40 C82 26 74 20 60 20 C46 20 38 26 36 40Z", fill: "#3a3029" }));
      root.appendChild(svg("rect", { x: 37, y: 36, width: 46, height: 4, fill: "#8a6a3a" }));
    } else if (extra === 3) {
      root.appendChild(svg("circle", { cx: 36, cy: 72, r: 2.4, fill: "#d4af37" }));
      root.appendChild(svg("circle", { cx: 84, cy: 72, r: 2.4, fill: "#d4af37" }));
    } else if (extra === 4) {
      root.appendChild(svg("path", { d: "M50 76 Q55 72 60 75 Q65 72 70 76 Q65 78 60 77 Q55 78 50 76Z", fill: hair }));
    } else if (extra === 5 && kind !== "defense") {
      root.appendChild(svg("path", { d: "M42 98 Q60 112 78 98 L80 106 Q60 120 40 106Z", fill: pick(CLOTH) }));
    }
    return root;
  }

  // portrait returns the picture of a speaker. Judge and Prosecutor are the drawn files;
  // the Defense is the player's avatar; a witness gets a face from the hash of its id.
  function portrait(role, key, label) {
    const wrap = el("span", { class: "portrait portrait-" + role });
    if (role === "judge" || role === "prosecutor") {
      wrap.appendChild(el("img", { src: "/static/court/portraits/" + role + ".svg", alt: label || role, width: 120, height: 140 }));
    } else if (role === "defense") {
      const o = loadOptions();
      if (o.avatar === "classic" || !AVATARS.includes(o.avatar)) {
        wrap.appendChild(el("img", { src: "/static/court/portraits/defense.svg", alt: label || "defense", width: 120, height: 140 }));
      } else {
        wrap.appendChild(face(o.avatar, "defense", label || "defense"));
      }
    } else if (role === "witness") {
      wrap.appendChild(face("witness:" + (key || label || "?"), "witness", label || "witness"));
    } else {
      wrap.appendChild(el("img", { src: "/static/court/portraits/witness.svg", alt: "", width: 120, height: 140 }));
    }
    return wrap;
  }

  // ---- case file --------------------------------------------------------------------

  const CALLED_BY = { prosecution: "Called by the prosecution", defense: "Called by the defense", court: "Called by the court" };

  // caseFile renders a case record as a readable file: every field as text.
  function caseFile(c, opts = {}) {
    const s = (v) => (v === undefined || v === null ? "" : String(v));
    const box = el("article", { class: "case-file" });
    box.appendChild(el("header", { class: "case-head" },
      el("p", { class: "case-kind" }, s(c.kind) === "civil" ? "Civil claim" : "Criminal case", c.case_id ? " · " + s(c.case_id) : ""),
      el(opts.headingLevel || "h3", { class: "case-title" }, s(c.title) || "Untitled case")));
    const dl = el("dl", { class: "case-facts" });
    const fact = (k, v) => { if (s(v)) dl.append(el("dt", {}, k), el("dd", {}, s(v))); };
    fact(s(c.kind) === "civil" ? "Claim" : "Charge", c.charge);
    if (c.defendant) fact("Defendant", s(c.defendant.name) + (c.defendant.description ? " — " + s(c.defendant.description) : ""));
    if (!opts.hideGoal) fact("Defense goal", c.defense_goal);
    if (opts.showPrior) fact("Asked for", c.prior);
    box.appendChild(dl);
    if (s(c.summary)) box.append(el("h4", {}, "Summary"), el("p", { class: "case-summary" }, s(c.summary)));
    if (Array.isArray(c.evidence) && c.evidence.length) {
      box.append(el("h4", {}, "Evidence"), el("ul", { class: "evidence" }, c.evidence.map((e) =>
        el("li", {}, el("span", { class: "tag" }, s(e.id)), el("strong", {}, s(e.name)), e.description ? el("span", { class: "desc" }, s(e.description)) : null))));
    }
    if (Array.isArray(c.witnesses) && c.witnesses.length) {
      box.append(el("h4", {}, "Witnesses"), el("ul", { class: "witnesses" }, c.witnesses.map((w) =>
        el("li", {},
          portrait("witness", s(w.id), s(w.name)),
          el("div", {},
            el("strong", {}, s(w.name)), w.occupation ? el("span", { class: "occ" }, ", " + s(w.occupation)) : null,
            el("span", { class: "called called-" + s(w.called_by) }, CALLED_BY[s(w.called_by)] || "Called by " + s(w.called_by)),
            opts.full && w.personality ? el("span", { class: "desc" }, s(w.personality)) : null,
            opts.full && Array.isArray(w.knows) ? el("ul", { class: "knows" }, w.knows.map((k) => el("li", {}, s(k)))) : null)))));
    }
    return box;
  }

  function notice(node, text, kind) {
    clear(node);
    node.hidden = !text;
    node.className = "notice" + (kind ? " notice-" + kind : "");
    if (!text) return;
    for (const line of String(text).split("\n")) node.appendChild(el("p", {}, line));
    // A refusal (a limit, a failure) is shown where the player is looking: on a phone
    // the form's notice is below the Speak button, out of view.
    if (kind === "bad" || kind === "warn") {
      const b = node.getBoundingClientRect();
      if (b.top < 0 || b.bottom > window.innerHeight) node.scrollIntoView({ block: "nearest" });
    }
  }

  // ---- menu page --------------------------------------------------------------------

  function menuPage() {
    const panels = $$(".panel");
    const tabs = $$("[data-panel]");
    const show = (name) => {
      for (const p of panels) p.hidden = p.id !== "panel-" + name;
      for (const t of tabs) t.setAttribute("aria-current", t.dataset.panel === name ? "true" : "false");
      if (name === "load") loadGames();
      if (name === "new") loadCases();
    };
    for (const t of tabs) t.addEventListener("click", () => show(t.dataset.panel));

    let models = { models: [], offers: {}, defaults: {} };
    const modelsReady = api("GET", "/api/court/models").then((r) => {
      if (r.ok && r.data) models = { models: Array.isArray(r.data.models) ? r.data.models : [], offers: r.data.offers || {}, defaults: r.data.defaults || {} };
      fillOptions();
      fillModelSelect($("#gen-model"), "judge");
    });

    function fillModelSelect(sel, role) {
      if (!sel) return;
      const keep = sel.value;
      clear(sel);
      const def = models.defaults[role];
      sel.appendChild(el("option", { value: "" }, def ? "Server default (" + def + ")" : "Server default"));
      const offered = Array.isArray(models.offers[role]) ? models.offers[role] : models.models;
      for (const m of offered) sel.appendChild(el("option", { value: String(m) }, String(m)));
      sel.value = keep;
      if (sel.value !== keep) sel.value = "";
    }

    // Options
    function fillOptions() {
      const o = loadOptions();
      for (const role of ROLES) {
        const sel = $("#opt-" + role);
        fillModelSelect(sel, role);
        sel.value = o.models[role] || "";
        if (sel.value !== (o.models[role] || "")) sel.value = "";
      }
      $("#opt-seed").value = o.seed;
      $("#opt-name").value = o.name;
      const avatars = $("#opt-avatars");
      clear(avatars);
      for (const a of AVATARS) {
        const id = "avatar-" + a;
        const input = el("input", { type: "radio", name: "avatar", value: a, id, checked: a === o.avatar });
        const pic = a === "classic"
          ? el("img", { src: "/static/court/portraits/defense.svg", alt: "", width: 120, height: 140 })
          : face(a, "defense", "avatar " + a);
        avatars.appendChild(el("label", { class: "avatar-choice", for: id }, input, el("span", { class: "portrait" }, pic),
          el("span", { class: "sr-only" }, "Avatar " + (AVATARS.indexOf(a) + 1))));
      }
      renderPlayer();
    }
    $("#options-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const o = loadOptions();
      for (const role of ROLES) o.models[role] = $("#opt-" + role).value;
      o.seed = $("#opt-seed").value.trim();
      o.name = $("#opt-name").value.trim().slice(0, 60);
      const a = $("input[name=avatar]:checked");
      o.avatar = a ? a.value : "classic";
      saveOptions(o);
      renderPlayer();
      notice($("#options-status"), "Options saved.", "ok");
    });

    function renderPlayer() {
      const o = loadOptions();
      const slot = $("#player-card");
      if (!slot) return;
      clear(slot);
      slot.append(portrait("defense", "", "your avatar"),
        el("span", { class: "player-name" }, o.name || "Counsel for the defense"),
        el("span", { class: "player-role" }, "Defense"));
    }

    // New game
    let cases = null;
    async function loadCases() {
      const list = $("#case-list");
      const status = $("#cases-status");
      if (cases === null) notice(status, "Fetching the docket…");
      const r = await api("GET", "/api/court/cases");
      if (!r.ok) { notice(status, r.message, "bad"); return; }
      cases = Array.isArray(r.data && r.data.cases) ? r.data.cases : [];
      notice(status, cases.length ? "" : "There are no cases yet: generate one.");
      clear(list);
      addCases(cases, r.data.next);
    }

    // addCases lists a page of the docket, with a button for the next page if any.
    function addCases(page, next) {
      const list = $("#case-list");
      for (const old of $$(".more-cases", list)) old.remove();
      for (const c of page) {
        const details = el("details", { class: "case-more" }, el("summary", {}, "Read the case file"), caseFile(c, { hideGoal: false }));
        const begin = el("button", { type: "button", class: "btn btn-primary" }, "Begin trial");
        begin.addEventListener("click", () => startGame(c.case_id, begin));
        list.appendChild(el("li", { class: "case-card" },
          el("p", { class: "case-kind" }, String(c.kind) === "civil" ? "Civil claim" : "Criminal case"),
          el("h3", {}, String(c.title || c.case_id)),
          el("p", { class: "case-charge" }, String(c.charge || "")),
          c.defendant ? el("p", { class: "case-def" }, "Defendant: " + String(c.defendant.name || "")) : null,
          details,
          el("div", { class: "actions" }, begin)));
      }
      if (next === null || next === undefined) return;
      const more = el("button", { type: "button", class: "btn" }, "More cases");
      more.addEventListener("click", async () => {
        more.disabled = true;
        const r = await api("GET", "/api/court/cases?offset=" + encodeURIComponent(String(next)));
        if (!r.ok) { more.disabled = false; notice($("#cases-status"), r.message, "bad"); return; }
        addCases(Array.isArray(r.data && r.data.cases) ? r.data.cases : [], r.data.next);
      });
      list.appendChild(el("li", { class: "more-cases" }, more));
    }

    async function startGame(caseID, button) {
      const o = loadOptions();
      const body = { case_id: String(caseID) };
      const seed = parseInt(o.seed, 10);
      body.seed = Number.isFinite(seed) ? seed : Math.floor(Math.random() * 1e6);
      const chosen = {};
      for (const role of ROLES) if (o.models[role]) chosen[role] = o.models[role];
      if (Object.keys(chosen).length) body.models = chosen;
      if (o.name || o.avatar) body.player = { name: String(o.name || ""), avatar: String(o.avatar || "") };
      if (button) { button.disabled = true; button.textContent = "Calling the court…"; }
      const r = await api("POST", "/api/court/games", body);
      if (!r.ok || !r.data || !r.data.game_id) {
        if (button) { button.disabled = false; button.textContent = "Begin trial"; }
        notice($("#cases-status"), r.message || "The court did not open a game.", "bad");
        notice($("#gen-status"), r.message || "The court did not open a game.", "bad");
        return;
      }
      location.assign("/court/games/" + encodeURIComponent(r.data.game_id));
    }

    // Load game
    async function loadGames() {
      const tbody = $("#game-list");
      const status = $("#games-status");
      const r = await api("GET", "/api/court/games");
      if (!r.ok) { notice(status, r.message, "bad"); return; }
      const games = Array.isArray(r.data && r.data.games) ? r.data.games : [];
      notice(status, games.length ? "" : "No saved games yet.");
      $("#games-table").hidden = !games.length;
      clear(tbody);
      for (const g of games) {
        const when = g.updated ? new Date(g.updated) : null;
        tbody.appendChild(el("tr", {},
          el("th", { scope: "row" }, el("a", { href: "/court/games/" + encodeURIComponent(String(g.game_id)) }, String(g.title || g.case_id || g.game_id))),
          el("td", {}, when && !isNaN(when) ? when.toLocaleString() : String(g.updated || "")),
          el("td", {}, phaseName(g.phase)),
          el("td", {}, g.outcome === "win" ? "Won" : g.outcome === "loss" ? "Lost" : "In progress")));
      }
    }

    // Case generation
    let generated = null;
    let draft = "";
    const genForm = $("#gen-form");
    genForm.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const prior = $("#gen-prior").value.trim();
      if (!prior) { notice($("#gen-status"), "Describe the case you want, e.g. “a theft at a harbour museum”.", "bad"); return; }
      const btn = $("#gen-go");
      btn.disabled = true;
      notice($("#gen-status"), "The clerk is drafting the case file… this can take a minute.");
      clear($("#gen-result"));
      $("#gen-actions").hidden = true;
      const body = { prior };
      if ($("#gen-model").value) body.model = $("#gen-model").value;
      const r = await api("POST", "/api/court/cases/generate", body);
      btn.disabled = false;
      if (!r.ok || !r.data || !r.data.case) {
        generated = null;
        notice($("#gen-status"), r.message || "No case came back.", "bad");
        return;
      }
      generated = r.data.case;
      draft = String(r.data.draft || "");
      notice($("#gen-status"), "");
      $("#gen-result").appendChild(caseFile(generated, { full: true, showPrior: true, headingLevel: "h3" }));
      $("#gen-actions").hidden = false;
      $("#gen-save").disabled = false;
      $("#gen-begin").hidden = true;
      $("#gen-save").focus();
    });
    $("#gen-discard").addEventListener("click", () => {
      generated = null;
      clear($("#gen-result"));
      $("#gen-actions").hidden = true;
      notice($("#gen-status"), "Discarded. Adjust the request and generate again.");
      genForm.requestSubmit();
    });
    $("#gen-save").addEventListener("click", async () => {
      if (!generated) return;
      $("#gen-save").disabled = true;
      // The page holds the public case only: the server saves the draft it kept whole.
      const r = await api("POST", "/api/court/cases", draft ? { draft } : { case: generated });
      if (!r.ok) {
        $("#gen-save").disabled = false;
        notice($("#gen-status"), r.message, "bad");
        return;
      }
      const id = (r.data && r.data.case_id) || generated.case_id;
      generated.case_id = id;
      cases = null;
      notice($("#gen-status"), "Saved to the docket as “" + String(id) + "”.", "ok");
      $("#gen-begin").hidden = false;
      $("#gen-begin").focus();
    });
    $("#gen-begin").addEventListener("click", () => generated && startGame(generated.case_id, $("#gen-begin")));

    const first = (location.hash || "").replace("#", "");
    show(["new", "load", "generate", "options"].includes(first) ? first : "new");
    return modelsReady;
  }

  function phaseName(p) {
    const names = { introduction: "Introduction", interrogation: "Interrogation", closing: "Closing", verdict: "Verdict" };
    return names[p] || String(p || "");
  }

  // ---- game page --------------------------------------------------------------------

  function gamePage(body) {
    const gameID = body.dataset.gameId;
    const list = $("#turns");
    const scroller = $("#dialogue-scroll");
    const form = $("#defense-form");
    const input = $("#defense-text");
    const counter = $("#defense-count");
    const toSel = $("#defense-to");
    const status = $("#floor-status");
    const conn = $("#conn-status");
    const st = {
      game: null, kase: null, verdict: null, current: null, cursor: 0,
      floor: false, over: false, es: null, restPrimed: 0,
    };
    st.cursor = $$("li.turn", list).length;
    // On a phone the court record folds away under the dialogue until asked for.
    const narrow = window.matchMedia("(max-width: 720px)");
    if (narrow.matches) $("#record-details").open = false;
    narrow.addEventListener("change", () => { $("#record-details").open = !narrow.matches; });

    // Turns rendered by the server get their portraits once the case is known.
    const witnessIDByName = new Map();

    function speakerInfo(speaker, role) {
      const sp = String(speaker || "");
      const r = String(role || "").toLowerCase();
      const m = /^Witness \((.*)\)$/.exec(sp);
      if (r === "witness" || m) {
        const name = m ? m[1] : sp;
        return { role: "witness", name, title: "Witness", key: witnessIDByName.get(name) || name };
      }
      if (r === "defense") {
        const o = loadOptions();
        return { role: "defense", name: o.name || "Defense", title: o.name ? "Defense" : "Counsel for the defense", key: "" };
      }
      if (r === "judge") return { role: "judge", name: "The Court", title: "Judge", key: "" };
      if (r === "prosecutor") return { role: "prosecutor", name: "The Prosecutor", title: "Prosecution", key: "" };
      return { role: r || "system", name: sp || "Clerk", title: r || "", key: "" };
    }

    function turnNode(idx) {
      let li = $("li.turn[data-index=\"" + idx + "\"]", list);
      if (!li) {
        li = el("li", { class: "turn", "data-index": idx });
        // keep the list ordered by index
        const after = $$("li.turn", list).find((n) => Number(n.dataset.index) > idx);
        list.insertBefore(li, after || null);
      }
      return li;
    }

    function fillTurn(li, speaker, role, phase, text, player) {
      const info = speakerInfo(speaker, role);
      li.className = "turn role-" + info.role + (player ? " player" : "");
      li.dataset.speaker = String(speaker || "");
      li.dataset.role = info.role;
      li.dataset.phase = String(phase || "");
      clear(li);
      const bubble = el("div", { class: "bubble" },
        el("p", { class: "who" }, el("span", { class: "name" }, info.name), el("span", { class: "title" }, info.title)),
        el("p", { class: "text" }, text === undefined ? "" : String(text)));
      li.append(portrait(info.role, info.key, info.name), bubble);
      return li;
    }

    const nearBottom = () => scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 80;
    function follow(wasNear) { if (wasNear) scroller.scrollTop = scroller.scrollHeight; }

    function setPhase(p) {
      if (!PHASES.includes(p)) return;
      for (const li of $$("#phases li")) {
        const i = PHASES.indexOf(li.dataset.phase);
        li.classList.toggle("done", i < PHASES.indexOf(p));
        if (li.dataset.phase === p) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
      }
      body.dataset.phase = p;
      $("#rest-btn").hidden = p !== "interrogation";
      input.placeholder = p === "closing" ? "Your closing statement to the court…"
        : p === "introduction" ? "Your opening statement for the defense…"
        : "Question a witness, answer the prosecutor, or address the court…";
    }

    function setFloor(on) {
      st.floor = on && !st.over;
      input.disabled = !st.floor;
      toSel.disabled = !st.floor;
      $("#objection-btn").disabled = !st.floor;
      $("#rest-btn").disabled = !st.floor;
      updateCount();
      body.classList.toggle("floor", st.floor);
      if (st.over) status.textContent = "The court has risen.";
      else if (st.floor) status.textContent = "The defense has the floor.";
      else status.textContent = "The court is in session: wait for your turn.";
      if (st.floor && document.activeElement === document.body) input.focus();
    }

    function updateCount() {
      const n = chars(input.value);
      counter.textContent = n.toLocaleString("en") + " / " + MAX_CHARS.toLocaleString("en");
      counter.classList.toggle("over", n > MAX_CHARS);
      $("#send-btn").disabled = !st.floor || n === 0 || n > MAX_CHARS || !input.value.trim();
    }

    // --- SSE handlers: each one idempotent, keyed by the turn's index ---
    const on = {
      turn(d) {
        const idx = Number.isInteger(d.index) ? d.index : st.cursor;
        const wasNear = nearBottom();
        const li = turnNode(idx);
        st.current = idx;
        if (!li.classList.contains("final")) {
          fillTurn(li, d.speaker, d.role, d.phase, "", false);
          li.classList.add("streaming");
        }
        setFloor(false);
        setPhase(d.phase);
        follow(wasNear);
      },
      delta(d) {
        if (st.current === null) return;
        const li = turnNode(st.current);
        if (li.classList.contains("final")) return; // a replayed turn we already have
        const wasNear = nearBottom();
        $(".text", li).appendChild(document.createTextNode(String(d.text || "")));
        follow(wasNear);
      },
      reset() {
        if (st.current === null) return;
        const li = turnNode(st.current);
        if (li.classList.contains("final")) return;
        clear($(".text", li));
        li.classList.add("retrying");
      },
      end(d) {
        const t = d.turn || {};
        const idx = Number.isInteger(d.index) ? d.index : Number.isInteger(t.index) ? t.index : st.current !== null ? st.current : st.cursor;
        const wasNear = nearBottom();
        const li = turnNode(idx);
        fillTurn(li, t.speaker, t.role, t.phase, t.text, t.player);
        li.classList.add("final");
        st.cursor = Math.max(st.cursor, idx + 1);
        st.current = null;
        setPhase(t.phase);
        highlight(li.dataset.role, li.dataset.speaker);
        follow(wasNear);
      },
      awaiting() {
        setFloor(true);
        highlight("defense", "Defense");
      },
      verdict(d) {
        st.verdict = Object.assign({}, st.verdict || {}, d);
        st.over = true;
        setFloor(false);
        setPhase("verdict");
        showVerdict();
        if (st.es) { st.es.close(); st.es = null; }
      },
      error(d) {
        const msg = String((d && d.message) || "The court ran into a problem.");
        const box = $("#trial-error");
        notice(box, msg, "bad");
        if (d && d.restart) {
          const btn = el("button", { type: "button", class: "btn btn-primary", id: "restart-btn" }, "Restart the trial");
          btn.addEventListener("click", restart);
          box.appendChild(el("p", {}, "The trial can start again from the first turn (this counts as a restart)."));
          box.appendChild(btn);
          setFloor(false);
          if (st.es) { st.es.close(); st.es = null; }
        }
      },
    };

    function connect() {
      const es = new EventSource(gamePath(gameID) + "/events");
      st.es = es;
      for (const name of Object.keys(on)) {
        es.addEventListener(name, (ev) => {
          // EventSource also fires "error" for a lost connection: that one has no data.
          if (name === "error" && !("data" in ev && ev.data)) return;
          let d = {};
          try { d = ev.data ? JSON.parse(ev.data) : {}; } catch { return; }
          on[name](d || {});
        });
      }
      es.addEventListener("open", () => { conn.hidden = true; });
      es.onerror = () => {
        if (st.es !== es) return;
        conn.hidden = false;
        conn.textContent = es.readyState === EventSource.CLOSED ? "Lost the connection to the court. Reload the page to continue." : "Reconnecting to the court…";
      };
    }

    function highlight(role, speaker) {
      for (const seat of $$(".seat")) {
        const hit = seat.dataset.role === role && (role !== "witness" || seat.dataset.speaker === speaker);
        seat.classList.toggle("speaking", hit);
      }
      if (role === "witness") {
        const stand = $("#seat-witness");
        const info = speakerInfo(speaker, "witness");
        stand.dataset.speaker = speaker;
        const pic = $(".seat-pic", stand);
        clear(pic);
        pic.appendChild(portrait("witness", info.key, info.name));
        $(".seat-name", stand).textContent = info.name;
        stand.classList.add("speaking", "occupied");
      }
    }

    async function send(text, extra) {
      const payload = Object.assign({ text }, extra || {});
      if (toSel.value && !payload.to) payload.to = toSel.value;
      setFloor(false);
      const r = await api("POST", gamePath(gameID) + "/defense", payload);
      if (r.status === 202 || r.ok) {
        input.value = "";
        updateCount();
        notice($("#form-status"), "");
        return;
      }
      if (r.status === 409) {
        notice($("#form-status"), "The court has not given you the floor yet; your text is kept.", "warn");
        resync();
        return;
      }
      notice($("#form-status"), r.message, "bad");
      setFloor(true);
    }

    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = input.value.trim();
      if (!st.floor || !text || chars(text) > MAX_CHARS) return;
      send(text);
    });
    input.addEventListener("input", updateCount);
    input.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) {
        ev.preventDefault();
        form.requestSubmit();
      }
    });
    $("#objection-btn").addEventListener("click", () => {
      if (!st.floor) return;
      const rest = input.value.trim();
      const text = rest ? (/^objection\b/i.test(rest) ? rest : "Objection: " + rest) : "Objection.";
      if (chars(text) > MAX_CHARS) return;
      send(text, { objection: true, to: "Judge" });
    });
    $("#rest-btn").addEventListener("click", async () => {
      const btn = $("#rest-btn");
      if (!st.floor) return;
      if (Date.now() - st.restPrimed > 6000) {
        st.restPrimed = Date.now();
        btn.textContent = "Confirm: the defense rests";
        btn.classList.add("primed");
        setTimeout(() => { if (Date.now() - st.restPrimed >= 6000) { btn.textContent = "Rest the defense"; btn.classList.remove("primed"); } }, 6100);
        return;
      }
      st.restPrimed = 0;
      btn.textContent = "Rest the defense";
      btn.classList.remove("primed");
      setFloor(false);
      const r = await api("POST", gamePath(gameID) + "/rest", {});
      if (r.status === 202 || r.ok) { notice($("#form-status"), "The defense rests. Closing statements follow.", "ok"); return; }
      notice($("#form-status"), r.status === 409 ? "The defense cannot rest right now." : r.message, "warn");
      if (r.status === 409) resync(); else setFloor(true);
    });

    // resync asks the server who has the floor, after it refused a request.
    async function resync() {
      const g = await api("GET", gamePath(gameID));
      if (g.ok && g.data && !st.over) setFloor(!!g.data.awaiting_defense);
    }

    async function restart() {
      const btn = $("#restart-btn");
      if (btn) btn.disabled = true;
      const r = await api("POST", gamePath(gameID) + "/restart", {});
      if (r.status === 202 || r.ok) { location.reload(); return; }
      notice($("#trial-error"), r.message, "bad");
    }

    function fillAddressees() {
      const keep = toSel.value;
      clear(toSel);
      toSel.append(el("option", { value: "" }, "Let the court decide"),
        el("option", { value: "Judge" }, "The Court (Judge)"),
        el("option", { value: "Prosecutor" }, "The Prosecutor"));
      for (const w of (st.kase && st.kase.witnesses) || []) {
        toSel.appendChild(el("option", { value: "Witness_" + String(w.id) }, String(w.name) + (w.occupation ? ", " + String(w.occupation) : "") + " (witness)"));
      }
      toSel.value = keep;
      if (toSel.value !== keep) toSel.value = "";
    }

    function showRecord() {
      const rec = $("#record-body");
      clear(rec);
      if (!st.kase) { rec.appendChild(el("p", { class: "muted" }, "The case file is not available.")); return; }
      rec.appendChild(caseFile(st.kase, { headingLevel: "h3" }));
      $("#case-title").textContent = String(st.kase.title || st.kase.case_id || "");
      document.title = String(st.kase.title || "Trial") + " · LLM Court";
      for (const w of st.kase.witnesses || []) witnessIDByName.set(String(w.name), String(w.id));
      fillAddressees();
      // repaint portraits of witness turns now that their ids are known
      for (const li of $$("li.turn.role-witness", list)) {
        const info = speakerInfo(li.dataset.speaker, "witness");
        const old = $(".portrait", li);
        if (old) li.replaceChild(portrait("witness", info.key, info.name), old);
      }
      const c = st.kase;
      $("#verdict-kind").textContent = String(c.kind) === "civil" ? "Civil claim: " + String(c.charge || "") : "Charge: " + String(c.charge || "");
    }

    function outcomeWords(outcome) {
      const civil = st.kase && String(st.kase.kind) === "civil";
      if (outcome === "win") return civil ? "Not liable" : "Not guilty";
      if (outcome === "loss") return civil ? "Liable" : "Guilty";
      return "No verdict";
    }

    function showVerdict() {
      const v = st.verdict || {};
      const panel = $("#verdict");
      panel.hidden = false;
      panel.classList.toggle("win", v.outcome === "win");
      panel.classList.toggle("loss", v.outcome === "loss");
      $("#verdict-words").textContent = outcomeWords(v.outcome);
      $("#verdict-goal").textContent = v.outcome === "win" ? "The defense goal was met" + (st.kase && st.kase.defense_goal ? ": " + String(st.kase.defense_goal) + "." : ".")
        : v.outcome === "loss" ? "The defense goal was not met" + (st.kase && st.kase.defense_goal ? ": " + String(st.kase.defense_goal) + "." : ".") : "";
      $("#verdict-justification").textContent = String(v.justification || "");
      $("#verdict-summary").textContent = String(v.summary || "");
      $("#verdict-summary-wrap").hidden = !v.summary;
      $("#defense-form").hidden = true;
      if (!v.summary && !st.summaryAsked) {
        st.summaryAsked = true;
        api("GET", gamePath(gameID) + "/transcript").then((r) => {
          const tv = r.ok && r.data && r.data.verdict;
          if (!tv) return;
          st.verdict = Object.assign({ outcome: r.data.outcome }, tv, st.verdict || {});
          if (!st.verdict.summary && tv.summary) st.verdict.summary = tv.summary;
          if (!st.verdict.justification && tv.justification) st.verdict.justification = tv.justification;
          showVerdict();
        });
      }
    }

    $("#judge-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const btn = $("#judge-btn");
      btn.disabled = true;
      const out = $("#scores");
      clear(out);
      notice($("#judge-status"), "The checklist judge is reading the transcript…");
      const body = {};
      if ($("#judge-model").value) body.model = $("#judge-model").value;
      const r = await api("POST", gamePath(gameID) + "/judge", body);
      btn.disabled = false;
      if (!r.ok || !r.data) { notice($("#judge-status"), r.message, "bad"); return; }
      notice($("#judge-status"), "");
      const rows = [["Quality Score (all questions)", r.data.qs]].concat(Object.entries(r.data.by_dimension || {}));
      for (const [name, val] of rows) {
        const n = Number(val);
        const ok = Number.isFinite(n);
        const w = ok ? Math.max(0, Math.min(1, n)) * 100 : 0;
        out.appendChild(el("li", { class: "score" + (name === rows[0][0] ? " overall" : "") },
          el("span", { class: "score-name" }, String(name)),
          svg("svg", { class: "bar", viewBox: "0 0 100 8", preserveAspectRatio: "none", "aria-hidden": "true" },
            svg("rect", { class: "bar-back", width: 100, height: 8, rx: 2 }),
            svg("rect", { class: "bar-fill", width: w.toFixed(1), height: 8, rx: 2 })),
          el("span", { class: "score-val" }, ok ? n.toFixed(2) : "—")));
      }
    });

    api("GET", "/api/court/models").then((r) => {
      const sel = $("#judge-model");
      if (!r.ok || !r.data) return;
      for (const m of r.data.models || []) sel.appendChild(el("option", { value: String(m) }, String(m)));
    });

    // The defense seat shows the player's avatar and name.
    const seat = $("#seat-defense");
    clear($(".seat-pic", seat));
    $(".seat-pic", seat).appendChild(portrait("defense", "", "you"));
    $(".seat-name", seat).textContent = loadOptions().name || "You";

    // Start: the game, then its case, then the stream.
    setFloor(false);
    setPhase(body.dataset.phase || "introduction");
    return (async () => {
      const g = await api("GET", gamePath(gameID));
      if (!g.ok || !g.data) {
        notice($("#trial-error"), g.message || "This game could not be loaded.", "bad");
        return;
      }
      st.game = g.data;
      const turns = Array.isArray(g.data.turns) ? g.data.turns : [];
      turns.forEach((t, i) => { const li = turnNode(i); if (!li.classList.contains("final")) { fillTurn(li, t.speaker, t.role, t.phase, t.text, t.player); li.classList.add("final"); } });
      st.cursor = 0; // the stream replays the attempt from its start (see the header)
      setPhase(g.data.phase);
      st.kase = g.data.case || null;
      showRecord();
      for (const li of $$("li.turn", list)) li.classList.add("final");
      scroller.scrollTop = scroller.scrollHeight;
      if (g.data.outcome) {
        st.over = true;
        st.verdict = { outcome: g.data.outcome };
        showVerdict();
        setFloor(false);
        return;
      }
      setFloor(!!g.data.awaiting_defense);
      connect();
    })();
  }

  // ---- start ------------------------------------------------------------------------

  document.documentElement.classList.add("js");
  const body = document.body;
  window.llmCourtReady = body.dataset.page === "menu" ? menuPage() : body.dataset.page === "game" ? gamePage(body) : Promise.resolve();
})();

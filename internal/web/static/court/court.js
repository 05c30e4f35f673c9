// court.js: the browser client of LLM Court (the courtroom game). Plain JavaScript, no
// framework, no build step. It drives two pages:
//
//   GET /court             court.html       <body data-page="menu">
//   GET /court/games/{id}  court_game.html  <body data-page="game" data-game-id="{id}">
//   GET /court/replays/{id} court_game.html <body data-page="game" data-replay-id="{id}">
//                                           (a stored simulated trial on the same stage)
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
//   GET  /api/court/replays             *  -> {"replays": [{"trial_id", "case_id", "title",
//                                             "seed", "models", "turns", "completed",
//                                             "outcome": null|"win"|"loss", "updated"}]}
//                                             the stored court simulate trials, newest first
//   GET  /api/court/replays/{id}/info   *  -> one of them with "case" (the public case)
//   GET  /api/court/replays/{id}?delay_ms=N&from=I
//                                       *  SSE: the trial replayed from the store, as a
//                                          game's events from turn I on, N ms after each
//                                          turn; "stopped" {"message"} when it ends short
//                                          of a verdict. /court/replays/{id} plays it.
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
  // WATCH_KEY + game id holds the watch token of a watched trial this browser started.
  const WATCH_KEY = "llm-court.watch.";
  // SEAT_KEY + game id holds, in the browser that created a two-person game, its side
  // and its invitation ({side, invite_url, invite_token}). A two-person game's page
  // learns its own side from it: the creator's browser has the record (and the view's
  // side is the creator's); a browser without it, or one that opened the invitation
  // link, plays the other side (the invitation's token is its cookie).
  const SEAT_KEY = "llm-court.seat.";
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

  const SPEEDS = { slow: 22, normal: 45, fast: 110, instant: Infinity };

  function loadOptions() {
    let o = {};
    try { o = JSON.parse(localStorage.getItem(OPTIONS_KEY) || "{}") || {}; } catch { o = {}; }
    const vol = Number(o.volume);
    return {
      models: typeof o.models === "object" && o.models ? o.models : {},
      seed: typeof o.seed === "string" ? o.seed : "",
      name: typeof o.name === "string" ? o.name : "",
      avatar: typeof o.avatar === "string" ? o.avatar : "classic",
      textSpeed: Object.hasOwn(SPEEDS, o.textSpeed) ? o.textSpeed : "normal",
      auto: o.auto !== false,
      sound: o.sound !== false,
      volume: Number.isFinite(vol) ? Math.max(0, Math.min(1, vol)) : 0.6,
      side: o.side === "prosecution" ? "prosecution" : "defense",
      voices: o.voices === true,
      two: o.two === true,
    };
  }

  function saveOptions(o) {
    try { localStorage.setItem(OPTIONS_KEY, JSON.stringify(o)); } catch { /* private mode: options last this visit */ }
  }

  // ---- sound: synthesized with WebAudio, silent until the player's first interaction ----

  const Sound = (() => {
    let ac = null, master = null;
    function unlock() {
      if (ac) return;
      const AC = window.AudioContext || window.webkitAudioContext;
      if (!AC) return;
      try {
        ac = new AC();
        master = ac.createGain();
        master.connect(ac.destination);
        apply();
      } catch { ac = null; }
    }
    function apply() {
      if (!master) return;
      const o = loadOptions();
      master.gain.value = o.sound ? o.volume : 0;
    }
    const on = () => ac && master && master.gain.value > 0;
    function tone(freq, dur, type, gain, at = 0, slide = 0) {
      const t = ac.currentTime + at;
      const osc = ac.createOscillator();
      const g = ac.createGain();
      osc.type = type;
      osc.frequency.setValueAtTime(freq, t);
      if (slide) osc.frequency.exponentialRampToValueAtTime(slide, t + dur);
      g.gain.setValueAtTime(gain, t);
      g.gain.exponentialRampToValueAtTime(0.0001, t + dur);
      osc.connect(g).connect(master);
      osc.start(t);
      osc.stop(t + dur + 0.02);
    }
    function noise(dur, gain, freq, at = 0) {
      const t = ac.currentTime + at;
      const n = Math.floor(ac.sampleRate * dur);
      const buf = ac.createBuffer(1, n, ac.sampleRate);
      const data = buf.getChannelData(0);
      for (let i = 0; i < n; i++) data[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / n, 3);
      const src = ac.createBufferSource();
      src.buffer = buf;
      const f = ac.createBiquadFilter();
      f.type = "lowpass";
      f.frequency.value = freq;
      const g = ac.createGain();
      g.gain.value = gain;
      src.connect(f).connect(g).connect(master);
      src.start(t);
    }
    const PITCH = { judge: 180, prosecutor: 260, witness: 340, defense: 420 };
    let lastBlip = 0;
    return {
      unlock, apply,
      blip(role) {
        if (!on()) return;
        const now = performance.now();
        if (now - lastBlip < 55) return;
        lastBlip = now;
        tone((PITCH[role] || 300) * (0.96 + Math.random() * 0.08), 0.04, "square", 0.035);
      },
      gavel() {
        if (!on()) return;
        for (const at of [0, 0.42]) { noise(0.12, 0.9, 1200, at); tone(150, 0.22, "sine", 0.8, at, 55); }
      },
      objection() {
        if (!on()) return;
        noise(0.18, 0.5, 3000);
        for (const f of [392, 494, 587]) tone(f, 0.5, "sawtooth", 0.09, 0.02, f * 1.02);
      },
      hit() { if (on()) { tone(330, 0.12, "square", 0.08); tone(660, 0.2, "square", 0.06, 0.1); } },
      miss() { if (on()) tone(260, 0.35, "square", 0.09, 0, 90); },
    };
  })();
  for (const ev of ["pointerdown", "keydown"]) document.addEventListener(ev, () => Sound.unlock(), { once: true, capture: true });

  // ---- voices: the browser's own speech synthesis, nothing downloaded or sent ----------
  //
  // Each person has a voice of their own for the whole trial: the voice, pitch and rate
  // come from a hash of the speaker (the role, and for a witness their id), within a band
  // per role so that the judge, the two counsel and the witnesses never sound alike.
  // Off unless the player turns it on (the options' "voices"); a line is spoken once,
  // when it is whole; "Hold it!" and skipping a line cut the voice short.
  const VOICE_BANDS = {
    judge: { pitch: [0.55, 0.7], rate: [0.85, 0.92] },
    prosecutor: { pitch: [0.8, 0.92], rate: [1.05, 1.12] },
    defense: { pitch: [1.0, 1.12], rate: [0.96, 1.02] },
    witness: { pitch: [1.2, 1.6], rate: [0.9, 1.2] },
  };
  const VOICE_ROLE_OFFSET = { judge: 0, prosecutor: 1, defense: 2, witness: 3 };

  const Voice = (() => {
    const synth = () => (typeof window.speechSynthesis === "object" && window.speechSynthesis) || null;
    const on = () => loadOptions().voices && !!synth();
    function voices() {
      const s = synth();
      let vs = [];
      try { vs = (s && s.getVoices && s.getVoices()) || []; } catch { vs = []; }
      const en = vs.filter((v) => /^en\b/i.test(String(v.lang || "")));
      return en.length >= 2 ? en : vs;
    }
    // settingsFor answers the voice settings of a speaker: stable for the same key.
    function settingsFor(role, key) {
      const band = VOICE_BANDS[role] || VOICE_BANDS.witness;
      const h = hash(role + ":" + (key || ""));
      const f1 = (h & 0xffff) / 0xffff, f2 = (h >>> 16) / 0xffff;
      const vs = voices();
      const voice = vs.length ? vs[((role === "witness" ? h : 0) + (VOICE_ROLE_OFFSET[role] ?? 3)) % vs.length] : null;
      return {
        voice,
        pitch: Math.round((band.pitch[0] + (band.pitch[1] - band.pitch[0]) * f1) * 100) / 100,
        rate: Math.round((band.rate[0] + (band.rate[1] - band.rate[0]) * f2) * 100) / 100,
      };
    }
    function say(text, role, key) {
      const s = synth();
      const t = String(text || "").trim();
      if (!on() || !t || typeof window.SpeechSynthesisUtterance !== "function") return;
      const u = new window.SpeechSynthesisUtterance(t);
      const v = settingsFor(role, key);
      if (v.voice) u.voice = v.voice;
      u.pitch = v.pitch;
      u.rate = v.rate;
      u.volume = Math.max(0.05, loadOptions().volume);
      s.speak(u);
    }
    function cancel() {
      const s = synth();
      if (s && s.cancel) s.cancel();
    }
    return { say, cancel, settingsFor, available: () => !!synth() };
  })();

  // ---- portraits --------------------------------------------------------------------

  const SKIN = ["#f2d3b6", "#e3b48e", "#c98d60", "#a06a45", "#74492d", "#f0c8a0"];
  const HAIR = ["#2a1c13", "#553620", "#8b5a2b", "#c8a15c", "#9c3f25", "#1b1b1f"];
  const GREY = ["#d8d5ce", "#bdb9b0", "#a09d96", "#e9e6df"];
  const CLOTH = ["#41607f", "#6c3f4e", "#4d6a45", "#7b6136", "#5a4a7b", "#2e5052", "#80503a"];
  const BACKDROP = ["#d9c7a3", "#cdbb98", "#d4c1a8", "#c9bfa2"];
  const AVATARS = ["classic", "avatar-a", "avatar-b", "avatar-c", "avatar-d", "avatar-e"];
  const EXPRESSIONS = ["calm", "confident", "nervous", "shaken"];

  // hash is FNV-1a over the string: the same witness always gets the same face.
  function hash(s) {
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h >>> 0;
  }

  // traitsOf reads what a public profile says about a person's looks: age words ("old",
  // "retired", "a 70-year-old", "student"), pronouns, and occupation words that come
  // with a hat, a coat or glasses. Unknown traits are left to the hash.
  function traitsOf(p) {
    const t = " " + [p.occupation, p.personality, p.description, p.name].map((s) => String(s || "")).join(" ").toLowerCase() + " ";
    const look = {};
    const years = /\b(\d{2})[- ]years?[- ]old\b/.exec(t) || /\baged (\d{2})\b/.exec(t);
    if (/\b(old|elderly|aged|retired|veteran|grand(mother|father|ma|pa)|widow(er)?|senior|pensioner|sixties|seventies|eighties|grey-haired|gray-haired|white-haired|decades|longtime|long-time|long-serving)\b/.test(t) || (years && Number(years[1]) >= 55)) look.age = "old";
    else if (/\b(young|youth|student|apprentice|teen(age|ager)?|intern|junior|trainee|boy|girl|kid|twenties|graduate|rookie)\b/.test(t) || (years && Number(years[1]) < 30)) look.age = "young";
    if (/\b(she|her|hers|woman|lady|mrs|ms|miss|mother|daughter|sister|wife|widow|waitress|actress|nun|grandmother|landlady|seamstress)\b/.test(t)) look.female = true;
    else if (/\b(he|his|him|man|mr|father|son|brother|husband|widower|grandfather|landlord)\b/.test(t)) look.female = false;
    if (/\b(caretaker|janitor|groundskeeper|gardener|porter|handyman|keeper|custodian)\b/.test(t)) look.hat = "cap";
    else if (/\b(guard|officer|police|constable|sergeant|watchman|detective|security|inspector)\b/.test(t)) look.hat = "peaked";
    else if (/\b(chef|cook|baker)\b/.test(t)) look.hat = "chef";
    else if (/\b(sailor|fisher(man|woman)?|dock(worker|hand)?|harbou?r|boat(man)?|deckhand|ferry|captain|skipper)\b/.test(t)) look.hat = "beanie";
    if (/\b(nurse|doctor|surgeon|pharmacist|chemist|scientist|technician|lab|vet(erinarian)?|coroner|pathologist)\b/.test(t)) look.coat = "#f4f4f0";
    if (/\b(clerk|accountant|banker|librarian|archivist|curator|professor|teacher|scholar|bookkeeper|auditor|analyst|researcher|scientist|jeweller|jeweler)\b/.test(t)) look.glasses = true;
    return look;
  }

  // face draws a person from parts picked by the hash of seed, overridden by look (see
  // traitsOf; look.expr is one of EXPRESSIONS). kind "defense" dresses them for court,
  // "judge" in a robe, "prosecutor" in a dark suit.
  function face(seed, kind, label, look = {}) {
    let h = hash(seed);
    const pick = (arr) => { const v = arr[h % arr.length]; h = Math.floor(h / arr.length) ^ (h >>> 7); return v; };
    const skin = pick(SKIN), back = pick(BACKDROP);
    let hair = pick(HAIR), cloth = pick(CLOTH);
    const female = look.female !== undefined ? look.female : pick([true, false]);
    let style = female ? pick([1, 2, 5]) : pick([0, 3, 4, 5]);
    let extra = pick([0, 1, 2, 3, 4, 5, 0]);
    const old = look.age === "old", young = look.age === "young";
    if (old) { hair = pick(GREY); if (!female && style === 4) style = 3; }
    if (young && extra === 4) extra = 0; // no moustache on the young
    if (female && extra === 4) extra = 0;
    if (look.glasses) extra = 1;
    if (look.hat && extra === 2) extra = 0;
    if (kind === "judge") { hair = GREY[3]; style = 3; extra = 1; cloth = "#17161c"; }
    if (kind === "prosecutor") { hair = "#1b1b1f"; style = 5; extra = 0; cloth = "#2f2236"; }
    const expr = EXPRESSIONS.includes(look.expr) ? look.expr : "calm";
    const root = svg("svg", { viewBox: "0 0 120 140", class: "portrait-svg expr-" + expr, role: "img", "aria-label": label || "portrait", "data-expr": expr });
    root.appendChild(svg("rect", { width: 120, height: 140, rx: 10, fill: kind === "judge" ? "#5a3823" : kind === "prosecutor" ? "#6b3030" : back }));
    root.appendChild(svg("path", { d: "M0 118 H120 V140 H0Z", fill: "#000", opacity: "0.08" }));
    if (style === 1) root.appendChild(svg("path", { d: "M34 60 C30 96 36 110 46 112 L74 112 C84 110 90 96 86 60Z", fill: hair }));
    const body = look.coat || (kind === "defense" ? "#27364d" : cloth);
    root.appendChild(svg("path", { d: "M8 140 C12 106 34 97 60 97 C86 97 108 106 112 140Z", fill: body }));
    root.appendChild(svg("path", { d: "M47 98 L60 122 L73 98Z", fill: "#f3eee4" }));
    if (kind === "defense" || kind === "prosecutor") {
      root.appendChild(svg("path", { d: "M57 103 L63 103 L65 124 L60 130 L55 124Z", fill: kind === "prosecutor" ? "#9e1f2a" : cloth }));
      root.appendChild(svg("path", { d: "M47 98 L58 128 L40 110Z M73 98 L62 128 L80 110Z", fill: kind === "prosecutor" ? "#1e1524" : "#1d293b" }));
    }
    if (kind === "judge") root.appendChild(svg("path", { d: "M50 98 L60 110 L70 98 L66 112 L54 112Z", fill: "#f7f4ee" }));
    if (look.coat) root.appendChild(svg("path", { d: "M44 100 L52 140 M76 100 L68 140", stroke: "#c9c9c2", "stroke-width": 1.5 }));
    root.appendChild(svg("rect", { x: 52, y: 80, width: 16, height: 20, rx: 4, fill: skin }));
    root.appendChild(svg("rect", { x: 52, y: 84, width: 16, height: 6, fill: "#000", opacity: "0.12" }));
    root.appendChild(svg("ellipse", { cx: 36, cy: 64, rx: 4, ry: 6, fill: skin }));
    root.appendChild(svg("ellipse", { cx: 84, cy: 64, rx: 4, ry: 6, fill: skin }));
    root.appendChild(svg("ellipse", { cx: 60, cy: 62, rx: 24, ry: 28, fill: skin }));
    if (expr === "shaken") root.appendChild(svg("path", { d: "M40 50 Q60 38 80 50 L80 58 Q60 48 40 58Z", fill: "#5d7bb5", opacity: "0.35" }));
    // age: lines on the forehead and at the eyes, a softer jaw
    if (old || kind === "judge") {
      root.appendChild(svg("path", { d: "M47 47 Q60 44 73 47 M49 51 Q60 48.5 71 51 M41 66 l-3 2 M79 66 l3 2 M48 74 Q46 78 48 82 M72 74 Q74 78 72 82", stroke: "#7a5a44", "stroke-opacity": "0.45", "stroke-width": 1.2, fill: "none", "stroke-linecap": "round" }));
    }
    // eyes and brows by expression
    const eye = (cx) => {
      if (expr === "shaken") return [svg("circle", { cx, cy: 63, r: 4.4, fill: "#fff" }), svg("circle", { cx, cy: 63, r: 1.6, fill: "#2a211b" })];
      if (expr === "confident") return [svg("ellipse", { cx, cy: 64, rx: 2.8, ry: 2.2, fill: "#2a211b" }), svg("path", { d: `M${cx - 4} 62 H${cx + 4}`, stroke: skin, "stroke-width": 2.2 })];
      return [svg("ellipse", { cx, cy: 63, rx: 2.6, ry: expr === "nervous" ? 2.4 : 3, fill: "#2a211b" })];
    };
    for (const n of [...eye(51), ...eye(69)]) root.appendChild(n);
    const brows = {
      calm: "M45 55 Q51 52 56 55 M64 55 Q69 52 75 55",
      confident: "M45 54 Q51 50 56 53 M64 55 Q69 54 75 56",
      nervous: "M45 54 Q51 55 56 51 M64 51 Q69 55 75 54",
      shaken: "M45 51 Q51 46 56 50 M64 50 Q69 46 75 51",
    }[expr];
    root.appendChild(svg("path", { d: brows, stroke: old ? "#8d8a84" : hair, "stroke-width": 2.4, fill: "none", "stroke-linecap": "round" }));
    root.appendChild(svg("path", { d: "M60 64 Q57 72 61 73", stroke: "#000", "stroke-opacity": "0.25", "stroke-width": 1.6, fill: "none", "stroke-linecap": "round" }));
    if (expr === "shaken") root.appendChild(svg("ellipse", { cx: 60, cy: 81, rx: 4, ry: 4.5, fill: "#5a2320" }));
    else root.appendChild(svg("path", {
      d: { calm: "M53 79 Q60 83 67 79", confident: "M53 79 Q62 82 68 75", nervous: "M52 80 q4 -3 8 0 q4 3 8 0" }[expr],
      stroke: "#7a3b2e", "stroke-width": 2, fill: "none", "stroke-linecap": "round" }));
    if (expr === "nervous" || expr === "shaken") {
      root.appendChild(svg("path", { d: "M86 46 q-4 7 0 9 q4 -2 0 -9Z", fill: "#8fc3ea", stroke: "#4f8fc0", "stroke-width": 0.8 }));
      if (expr === "shaken") root.appendChild(svg("path", { d: "M33 52 q-4 7 0 9 q4 -2 0 -9Z", fill: "#8fc3ea", stroke: "#4f8fc0", "stroke-width": 0.8 }));
    }
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
    // hats that come with the job
    if (look.hat === "cap") {
      root.appendChild(svg("path", { d: "M35 46 C36 30 48 25 61 25 C74 25 85 31 85 46Z", fill: "#4a4336" }));
      root.appendChild(svg("path", { d: "M33 46 H92 Q90 51 80 50 H35Z", fill: "#3a342a" }));
    } else if (look.hat === "peaked") {
      root.appendChild(svg("path", { d: "M34 44 C34 30 46 24 60 24 C74 24 86 30 86 44Z", fill: "#1f2a44" }));
      root.appendChild(svg("path", { d: "M36 44 H84 L88 50 H32Z", fill: "#111827" }));
      root.appendChild(svg("circle", { cx: 60, cy: 36, r: 4, fill: "#d4af37" }));
    } else if (look.hat === "chef") {
      root.appendChild(svg("path", { d: "M38 44 C28 36 34 18 48 22 C52 10 70 10 73 22 C88 18 92 36 82 44Z", fill: "#fbfbf8", stroke: "#ddd", "stroke-width": 1 }));
    } else if (look.hat === "beanie") {
      root.appendChild(svg("path", { d: "M35 50 C34 30 46 24 60 24 C74 24 86 30 85 50Z", fill: "#8e2f2f" }));
      root.appendChild(svg("rect", { x: 34, y: 44, width: 52, height: 8, rx: 3, fill: "#722424" }));
    }
    // accessory
    if (extra === 1) {
      root.appendChild(svg("g", { stroke: "#2b2b2b", "stroke-width": 2, fill: "none" },
        svg("circle", { cx: 51, cy: 63, r: 6.5 }), svg("circle", { cx: 69, cy: 63, r: 6.5 }), svg("path", { d: "M57.5 63 H62.5" })));
    } else if (extra === 2 && style !== 2 && !look.hat) {
      root.appendChild(svg("path", { d: "M30 44 H90 L84 40 C82 26 74 20 60 20 C46 20 38 26 36 40Z", fill: "#3a3029" }));
      root.appendChild(svg("rect", { x: 37, y: 36, width: 46, height: 4, fill: "#8a6a3a" }));
    } else if (extra === 3) {
      root.appendChild(svg("circle", { cx: 36, cy: 72, r: 2.4, fill: "#d4af37" }));
      root.appendChild(svg("circle", { cx: 84, cy: 72, r: 2.4, fill: "#d4af37" }));
    } else if (extra === 4) {
      root.appendChild(svg("path", { d: "M50 76 Q55 72 60 75 Q65 72 70 76 Q65 78 60 77 Q55 78 50 76Z", fill: hair }));
    } else if (extra === 5 && kind !== "defense" && !look.coat) {
      root.appendChild(svg("path", { d: "M42 98 Q60 112 78 98 L80 106 Q60 120 40 106Z", fill: pick(CLOTH) }));
    }
    return root;
  }

  // witnessLook is the look of the witness with id key in the case c (public profile).
  function witnessLook(c, key) {
    const w = ((c && c.witnesses) || []).find((x) => String(x.id) === String(key));
    return w ? traitsOf(w) : {};
  }

  // portrait returns the picture of a speaker: every one drawn, so each can change its
  // expression (look.expr). The Defense is the player's avatar; a witness's face comes
  // from the hash of its id and what its profile says (look).
  function portrait(role, key, label, look = {}) {
    const wrap = el("span", { class: "portrait portrait-" + role });
    if (role === "judge" || role === "prosecutor") {
      wrap.appendChild(face(role, role, label || role, look));
    } else if (role === "defense") {
      const o = loadOptions();
      if ((o.avatar === "classic" || !AVATARS.includes(o.avatar)) && !look.expr) {
        wrap.appendChild(el("img", { src: "/static/court/portraits/defense.svg", alt: label || "defense", width: 120, height: 140 }));
      } else {
        wrap.appendChild(face(AVATARS.includes(o.avatar) ? o.avatar : "classic", "defense", label || "defense", look));
      }
    } else if (role === "witness") {
      wrap.appendChild(face("witness:" + (key || label || "?"), "witness", label || "witness", look));
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
          portrait("witness", s(w.id), s(w.name), traitsOf(w)),
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
      if (name === "watch") { loadWatchCases(); loadReplays(); }
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
      // The defense's models are its own offer: none listed, the server's default only.
      const offered = Array.isArray(models.offers[role]) ? models.offers[role] : role === "defense" ? [] : models.models;
      for (const m of offered) sel.appendChild(el("option", { value: String(m) }, String(m)));
      sel.value = keep;
      if (sel.value !== keep) sel.value = "";
    }

    // Options
    function fillOptions() {
      const o = loadOptions();
      for (const role of ROLES.concat(["defense"])) {
        const sel = $("#opt-" + role);
        fillModelSelect(sel, role);
        sel.value = o.models[role] || "";
        if (sel.value !== (o.models[role] || "")) sel.value = "";
      }
      $("#opt-seed").value = o.seed;
      $("#opt-name").value = o.name;
      $("#opt-speed").value = o.textSpeed;
      $("#opt-auto").checked = o.auto;
      $("#opt-sound").checked = o.sound;
      $("#opt-voices").checked = o.voices;
      for (const r of $$("input[name=side]")) r.checked = r.value === o.side;
      $("#two-players").checked = o.two;
      for (const role of ["judge", "prosecutor", "defense", "witness", "analyzer"]) fillModelSelect($("#watch-" + role), role);
      $("#opt-volume").value = String(Math.round(o.volume * 100));
      if (ROLES.some((r) => o.models[r]) || o.seed) $("#advanced").open = true;
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
      for (const role of ROLES.concat(["defense"])) o.models[role] = $("#opt-" + role).value;
      o.voices = $("#opt-voices").checked;
      o.seed = $("#opt-seed").value.trim();
      o.name = $("#opt-name").value.trim().slice(0, 60);
      const a = $("input[name=avatar]:checked");
      o.avatar = a ? a.value : "classic";
      o.textSpeed = $("#opt-speed").value;
      o.auto = $("#opt-auto").checked;
      o.sound = $("#opt-sound").checked;
      o.volume = Number($("#opt-volume").value) / 100;
      saveOptions(o);
      Sound.apply();
      renderPlayer();
      notice($("#options-status"), "Options saved.", "ok");
    });

    function renderPlayer() {
      const o = loadOptions();
      const slot = $("#player-card");
      if (!slot) return;
      clear(slot);
      const pros = o.side === "prosecution";
      slot.append(portrait(pros ? "prosecutor" : "defense", "", "your avatar"),
        el("span", { class: "player-name" }, o.name || (pros ? "Counsel for the prosecution" : "Counsel for the defense")),
        el("span", { class: "player-role" }, pros ? "Prosecution" : "Defense"));
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
        list.appendChild(el("li", { class: "case-card", "data-case": String(c.case_id) },
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
      if (o.side === "prosecution" && o.models.defense && !o.two) chosen.defense = o.models.defense;
      if (Object.keys(chosen).length) body.models = chosen;
      if (o.name || o.avatar) body.player = { name: String(o.name || ""), avatar: String(o.avatar || "") };
      body.side = o.side;
      if (o.two) body.two_players = true;
      if (button) { button.disabled = true; button.textContent = "Calling the court…"; }
      const r = await api("POST", "/api/court/games", body);
      if (!r.ok || !r.data || !r.data.game_id) {
        if (button) { button.disabled = false; button.textContent = "Begin trial"; }
        notice($("#cases-status"), r.message || "The court did not open a game.", "bad");
        notice($("#gen-status"), r.message || "The court did not open a game.", "bad");
        return;
      }
      if (r.data.invite_token) {
        const rec = { side: o.side, invite_side: String(r.data.invite_side || ""), invite_url: String(r.data.invite_url || ""), invite_token: String(r.data.invite_token) };
        try { localStorage.setItem(SEAT_KEY + r.data.game_id, JSON.stringify(rec)); } catch { /* the invitation link is then missing */ }
      }
      location.assign("/court/games/" + encodeURIComponent(r.data.game_id));
    }

    // The side the player takes, kept with the options.
    for (const r of $$("input[name=side]")) {
      r.addEventListener("change", () => {
        if (!r.checked) return;
        const o = loadOptions();
        o.side = r.value === "prosecution" ? "prosecution" : "defense";
        saveOptions(o);
        renderPlayer();
        $("#side-choice").dataset.side = o.side;
      });
    }
    $("#side-choice").dataset.side = loadOptions().side;
    // Two players: the other counsel is a second person, invited by a link.
    $("#two-players").addEventListener("change", () => {
      const o = loadOptions();
      o.two = $("#two-players").checked;
      saveOptions(o);
      $("#side-choice").classList.toggle("two", o.two);
    });
    $("#side-choice").classList.toggle("two", loadOptions().two);

    // Watch a trial: every seat a model; the owner's page keeps the watch token so it
    // can share the link (and knows it may pace the trial).
    async function loadWatchCases() {
      const sel = $("#watch-case");
      const r = await api("GET", "/api/court/cases");
      if (!r.ok) { notice($("#watch-status"), r.message, "bad"); return; }
      const keep = sel.value;
      clear(sel);
      const cs = Array.isArray(r.data && r.data.cases) ? r.data.cases : [];
      if (!cs.length) sel.appendChild(el("option", { value: "" }, "No cases yet: generate one"));
      for (const c of cs) sel.appendChild(el("option", { value: String(c.case_id) }, String(c.title || c.case_id)));
      if (keep) sel.value = keep;
      if (!sel.value && cs.length) sel.value = String(cs[0].case_id);
    }
    $("#watch-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const caseID = $("#watch-case").value;
      if (!caseID) { notice($("#watch-status"), "Pick a case first.", "bad"); return; }
      const o = loadOptions();
      const seed = parseInt(o.seed, 10);
      const body = { case_id: caseID, seed: Number.isFinite(seed) ? seed : Math.floor(Math.random() * 1e6) };
      const chosen = {};
      for (const role of ["judge", "prosecutor", "defense", "witness", "analyzer"]) {
        const v = $("#watch-" + role).value;
        if (v) chosen[role] = v;
      }
      if (Object.keys(chosen).length) body.models = chosen;
      const btn = $("#watch-go");
      btn.disabled = true;
      notice($("#watch-status"), "Calling the court…");
      const r = await api("POST", "/api/court/watch", body);
      if (!r.ok || !r.data || !r.data.game_id) {
        btn.disabled = false;
        notice($("#watch-status"), r.message || "The court did not open a trial.", "bad");
        return;
      }
      try { localStorage.setItem(WATCH_KEY + r.data.game_id, String(r.data.watch_token || "")); } catch { /* the share link is then missing */ }
      location.assign("/court/games/" + encodeURIComponent(r.data.game_id));
    });

    // Stored trials (court simulate), each replayed on the stage at /court/replays/{id}.
    async function loadReplays() {
      const list = $("#replay-list");
      const status = $("#replays-status");
      const r = await api("GET", "/api/court/replays");
      clear(list);
      if (r.status === 403) { notice(status, "This server is public: the stored trials are its owner's. Open this menu with the owner's token (/court?token=…, printed by serve) to list them.", "warn"); return; }
      if (!r.ok) { notice(status, r.message, "bad"); return; }
      const rs = Array.isArray(r.data && r.data.replays) ? r.data.replays : [];
      notice(status, rs.length ? "" : "No stored trial yet: arbiter court simulate --db on this server's store plays some.");
      for (const t of rs) {
        const when = t.updated ? new Date(t.updated) : null;
        const outcome = t.outcome === "win" ? "The defense won" : t.outcome === "loss" ? "The defense lost" : t.completed ? "No verdict" : "Unfinished";
        const go = el("a", { class: "btn btn-primary", href: "/court/replays/" + encodeURIComponent(String(t.trial_id)) }, "Replay on the stage");
        list.appendChild(el("li", { class: "replay-card", "data-trial": String(t.trial_id) },
          el("h4", {}, String(t.title || t.case_id || t.trial_id)),
          el("p", { class: "replay-meta" }, el("span", { class: "replay-outcome replay-" + (t.outcome === "win" || t.outcome === "loss" ? t.outcome : "none") }, outcome),
            " · " + (Number(t.turns) || 0) + " turns · seed " + String(t.seed)),
          seatList(t.models || {}),
          el("p", { class: "replay-meta" }, "Stored " + (when && !isNaN(when) ? when.toLocaleString() : String(t.updated || "")) + " as ", el("code", { class: "replay-id" }, String(t.trial_id))),
          el("div", { class: "actions" }, go)));
      }
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

    // With no court model: what to run, with the models of a local Ollama if one answers.
    const offer = $("#ollama-offer");
    if (offer) {
      api("GET", "/api/court/ollama").then((r) => {
        if (!r.ok || !r.data) return;
        const ms = Array.isArray(r.data.models) ? r.data.models.map(String) : [];
        if (!r.data.answers) {
          offer.appendChild(el("p", {}, "No Ollama answers at " + String(r.data.host || "OLLAMA_HOST") + ". With Ollama installed: ", el("code", {}, "ollama pull llama3.1:8b"), ", then ", el("code", {}, "arbiter serve --court-model ollama/llama3.1:8b"), "."));
          return;
        }
        if (!ms.length) {
          offer.appendChild(el("p", {}, "Ollama answers at " + String(r.data.host) + " but has no model yet: ", el("code", {}, "ollama pull llama3.1:8b"), "."));
          return;
        }
        $("#run-cmd").textContent = "arbiter serve --court-model " + ms[0];
        offer.appendChild(el("p", {}, "Ollama answers at " + String(r.data.host) + " with " + ms.length + (ms.length === 1 ? " model" : " models") + ". Any of these runs the game:"));
        offer.appendChild(el("ul", { class: "ollama-models" }, ms.slice(0, 8).map((m) => el("li", {}, el("code", {}, "arbiter serve --court-model " + m)))));
      });
    }

    const first = (location.hash || "").replace("#", "");
    show(["new", "watch", "load", "generate", "options"].includes(first) ? first : "new");
    return modelsReady;
  }

  // seatRows says who played each seat: one row when one model played them all.
  function seatRows(m) {
    const seats = [["judge", "Judge"], ["prosecutor", "Prosecutor"], ["defense", "Defense"], ["witness", "Witnesses"], ["analyzer", "Analyzer"]];
    const named = seats.filter(([k]) => m[k]);
    const first = named.length ? String(m[named[0][0]]) : "";
    return named.length && named.every(([k]) => String(m[k]) === first) ? [["Every seat", first]] : named.map(([k, label]) => [label, String(m[k])]);
  }
  const seatList = (m) => el("dl", { class: "replay-seats" }, seatRows(m).map(([k, v]) => [el("dt", {}, k), el("dd", {}, el("code", {}, v))]).flat());
  const seatModels = (m) => seatRows(m).map(([k, v]) => k + ": " + v).join(" · ");

  function phaseName(p) {
    const names = { introduction: "Introduction", interrogation: "Interrogation", closing: "Closing", verdict: "Verdict" };
    return names[p] || String(p || "");
  }

  // ---- game page --------------------------------------------------------------------
  //
  // The stage plays one line at a time: the speaker's portrait (with an expression
  // chosen from the witness's situation: pressed -> nervous, exposed -> shaken), a name
  // plate, and the line typing out at the player's text speed. A `turn` event puts its
  // speaker on the stage at once (with auto-advance, the default; without it, the next
  // line waits for a click or a key). Click, Space or Enter on the stage finishes the
  // line; once finished, the same key goes on. #turns is the backlog (every line whole).

  function gamePage(body) {
    const gameID = body.dataset.gameId;
    // A replay of a stored simulated trial (/court/replays/{id}) plays on this same
    // stage: its events come from the store, paced by this page alone.
    const replayID = body.dataset.replayId || "";
    const list = $("#turns");
    const scroller = $("#dialogue-scroll");
    const form = $("#defense-form");
    const input = $("#defense-text");
    const counter = $("#defense-count");
    const toSel = $("#defense-to");
    const status = $("#floor-status");
    const conn = $("#conn-status");
    const stageEl = $("#stage");
    const lineEl = $("#stage-line");
    const st = {
      game: null, kase: null, verdict: null, debrief: null, current: null, cursor: 0,
      floor: false, over: false, es: null, restPrimed: 0,
      cred: 100, stand: "", exposed: [], turnsLeft: null, budget: null,
      turnData: new Map(), freshExposure: null, pressed: new Set(), presented: new Map(), holdAsked: false,
    };
    st.cursor = $$("li.turn", list).length;
    // The seat the player holds ("defense" or "prosecution"), or none in a watched trial.
    st.side = "defense";
    st.watch = false;
    const playerRole = () => (st.watch ? "" : st.side === "prosecution" ? "prosecutor" : "defense");
    const sideWord = () => (st.side === "prosecution" ? "prosecution" : "defense");
    const narrow = window.matchMedia("(max-width: 900px)");

    const witnessIDByName = new Map();

    function speakerInfo(speaker, role) {
      const sp = String(speaker || "");
      const r = String(role || "").toLowerCase();
      const m = /^Witness \((.*)\)$/.exec(sp);
      if (r === "witness" || m) {
        const name = m ? m[1] : sp;
        const key = witnessIDByName.get(name) || name;
        const w = ((st.kase && st.kase.witnesses) || []).find((x) => String(x.id) === key);
        return { role: "witness", name, title: w && w.occupation ? String(w.occupation) : "Witness", key };
      }
      if (r === "defense") {
        if (playerRole() !== "defense") return { role: "defense", name: "Defense Counsel", title: "Counsel for the defense", key: "" };
        const o = loadOptions();
        return { role: "defense", name: o.name || "Defense", title: o.name ? "Defense" : "Counsel for the defense", key: "" };
      }
      if (r === "judge") return { role: "judge", name: "The Court", title: "Judge", key: "" };
      if (r === "prosecutor") {
        if (playerRole() === "prosecutor") {
          const o = loadOptions();
          return { role: "prosecutor", name: o.name || "Prosecutor", title: o.name ? "Prosecution" : "Counsel for the prosecution", key: "" };
        }
        return { role: "prosecutor", name: "The Prosecutor", title: "Prosecution", key: "" };
      }
      return { role: r || "system", name: sp || "Clerk", title: r || "", key: "" };
    }

    function turnNode(idx) {
      let li = $("li.turn[data-index=\"" + idx + "\"]", list);
      if (!li) {
        li = el("li", { class: "turn", "data-index": idx });
        const after = $$("li.turn", list).find((n) => Number(n.dataset.index) > idx);
        list.insertBefore(li, after || null);
      }
      return li;
    }

    function fillTurn(li, speaker, role, phase, text, player, extra) {
      const info = speakerInfo(speaker, role);
      li.className = "turn role-" + info.role + (player ? " player" : "");
      li.dataset.speaker = String(speaker || "");
      li.dataset.role = info.role;
      li.dataset.phase = String(phase || "");
      clear(li);
      const tags = [];
      if (extra && extra.statement) tags.push(el("span", { class: "tag stmt" }, "#" + extra.statement));
      if (extra && extra.present) tags.push(el("span", { class: "tag" }, "presented " + String(extra.present)));
      if (extra && extra.press) tags.push(el("span", { class: "tag" }, "pressed #" + String(extra.press)));
      if (extra && extra.ruling) tags.push(el("span", { class: "tag ruling-" + String(extra.ruling) }, "objection " + String(extra.ruling)));
      const bubble = el("div", { class: "bubble" },
        el("p", { class: "who" }, el("span", { class: "name" }, info.name), el("span", { class: "title" }, info.title), tags),
        el("p", { class: "text" }, text === undefined ? "" : String(text)));
      li.append(portrait(info.role, info.key, info.name, info.role === "witness" ? witnessLook(st.kase, info.key) : {}), bubble);
      return li;
    }

    const nearBottom = () => scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 80;
    function follow(wasNear) { if (wasNear) scroller.scrollTop = scroller.scrollHeight; }

    // ---- the stage ----
    const stage = { idx: null, typed: 0, raf: 0, last: 0, queue: [], wait: false, done: true };

    function lineText(idx) {
      const li = $("li.turn[data-index=\"" + idx + "\"]", list);
      const t = li && $(".text", li);
      return t ? t.textContent : "";
    }

    // exprFor picks the speaker's expression for the line at idx.
    function exprFor(idx, info) {
      const prev = st.turnData.get(idx - 1) || {};
      if (info.role === "witness") {
        const id = info.key;
        if (st.freshExposure && st.freshExposure.witness === id) return "shaken";
        if (prev.press) return "nervous";
        if (st.exposed.some((x) => x.witness === id)) return "nervous";
        if (prev.present) return "confident";
        const w = ((st.kase && st.kase.witnesses) || []).find((x) => String(x.id) === id);
        return w && String(w.called_by) === "prosecution" ? "confident" : "calm";
      }
      if (info.role === "prosecutor") return st.freshExposure ? "nervous" : "confident";
      if (info.role === "defense") return st.freshExposure ? "confident" : "calm";
      return "calm";
    }

    function drawStage(idx) {
      const li = $("li.turn[data-index=\"" + idx + "\"]", list);
      if (!li) return;
      const info = speakerInfo(li.dataset.speaker, li.dataset.role);
      const expr = exprFor(idx, info);
      const look = Object.assign(info.role === "witness" ? witnessLook(st.kase, info.key) : {}, { expr });
      const slot = $("#stage-portrait");
      const same = stageEl.dataset.speaker === li.dataset.speaker;
      clear(slot);
      const pic = portrait(info.role, info.key, info.name + " (" + expr + ")", look);
      if (!same) pic.classList.add("enter");
      slot.appendChild(pic);
      stageEl.dataset.role = info.role;
      stageEl.dataset.speaker = li.dataset.speaker;
      stageEl.dataset.index = String(idx);
      stageEl.dataset.expr = expr;
      $("#stage-name").textContent = info.name;
      $("#stage-title").textContent = info.title;
      $("#stage-expr").textContent = expr === "calm" ? "" : expr;
      highlight(info.role, li.dataset.speaker);
    }

    function showLine(idx, whole) {
      stage.idx = idx;
      stage.typed = whole ? Infinity : 0;
      stage.wait = false;
      stage.done = false;
      $("#next-cue").hidden = true;
      lineEl.textContent = "";
      drawStage(idx);
      if (!stage.raf) { stage.last = performance.now(); stage.raf = requestAnimationFrame(tick); }
    }

    function tick(now) {
      stage.raf = 0;
      if (stage.idx === null) return;
      const dt = Math.min(0.1, (now - stage.last) / 1000);
      stage.last = now;
      const full = Array.from(lineText(stage.idx));
      const cps = SPEEDS[loadOptions().textSpeed] || SPEEDS.normal;
      const before = Math.floor(Math.min(stage.typed, full.length));
      const behind = full.length - stage.typed;
      const add = cps === Infinity ? Infinity : cps * (behind > 160 ? 4 : 1) * dt;
      stage.typed = Math.min(full.length, stage.typed + add);
      const shown = Math.floor(stage.typed);
      if (shown !== before || lineEl.textContent.length === 0 && shown > 0) {
        lineEl.textContent = full.slice(0, shown).join("");
        if (shown > before && /\S/.test(full.slice(before, shown).join(""))) Sound.blip(stageEl.dataset.role);
      }
      const li = $("li.turn[data-index=\"" + stage.idx + "\"]", list);
      const ended = li && li.classList.contains("final");
      if (ended && shown >= full.length) { lineDone(); return; }
      stage.raf = requestAnimationFrame(tick);
    }

    function lineDone() {
      stage.done = true;
      lineEl.textContent = lineText(stage.idx);
      if (stage.queue.length) {
        if (loadOptions().auto) { showLine(stage.queue.shift()); return; }
        stage.wait = true;
        $("#next-cue").hidden = false;
      }
    }

    // advance finishes the line being typed, or goes on to the next one.
    function advance() {
      if (stage.idx === null) return false;
      if (!stage.done) {
        Voice.cancel();
        stage.typed = Infinity;
        if (!stage.raf) stage.raf = requestAnimationFrame(tick);
        return true;
      }
      if (stage.wait && stage.queue.length) { Voice.cancel(); showLine(stage.queue.shift()); return true; }
      return false;
    }

    // lineStarts puts a new line on the stage (or queues it when auto-advance is off and
    // a line is still being read).
    function lineStarts(idx) {
      if (stage.idx === null || loadOptions().auto) {
        stage.queue = [];
        showLine(idx);
        return;
      }
      if (stage.idx === idx || stage.queue.includes(idx)) return;
      stage.queue.push(idx);
      if (stage.done) { stage.wait = true; $("#next-cue").hidden = false; }
    }

    $("#textbox").addEventListener("click", () => advance());
    document.addEventListener("keydown", (ev) => {
      if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey) return;
      const tag = (document.activeElement && document.activeElement.tagName) || "";
      if (/^(TEXTAREA|INPUT|SELECT|BUTTON|A|SUMMARY)$/.test(tag)) return;
      if (ev.key === " " || ev.key === "Enter") {
        if (advance()) { ev.preventDefault(); return; }
        if (st.floor && ev.key === "Enter") { ev.preventDefault(); input.focus(); }
      }
    });

    // ---- the banner: Objection! Hold it! ----
    let bannerTimer = 0;
    function banner(text, kind) {
      const b = $("#banner");
      $("#banner-text").textContent = text;
      b.className = "banner banner-" + kind;
      b.hidden = false;
      if (kind === "hold") Voice.cancel();
      stageEl.classList.add("shake");
      clearTimeout(bannerTimer);
      bannerTimer = setTimeout(() => { b.hidden = true; stageEl.classList.remove("shake"); }, 1600);
    }

    function setPhase(p) {
      if (!PHASES.includes(p)) return;
      for (const li of $$("#phases li")) {
        const i = PHASES.indexOf(li.dataset.phase);
        li.classList.toggle("done", i < PHASES.indexOf(p));
        if (li.dataset.phase === p) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
      }
      body.dataset.phase = p;
      $("#rest-btn").hidden = p !== "interrogation";
      $("#hold-btn").hidden = p !== "interrogation";
      input.placeholder = p === "closing" ? "Your closing statement to the court…"
        : p === "introduction" ? "Your opening statement for the " + sideWord() + "…"
        : "Question a witness, answer the " + (st.side === "prosecution" ? "defense" : "prosecutor") + ", or address the court…";
      updateMoves();
    }

    // floorFrom sets the floor from a view: in a two-person game the floor is this
    // page's when the view's floor is its side.
    function floorFrom(v) {
      if (st.two) {
        st.floorSide = v.awaiting_player && typeof v.floor === "string" ? v.floor : "";
        setFloor(st.floorSide === st.side);
        return;
      }
      setFloor(!st.watch && !!v.awaiting_player);
    }

    function setFloor(on) {
      st.floor = on && !st.over;
      body.dataset.floor = st.over ? "" : st.two ? (st.floorSide || "") : st.floor ? st.side : "";
      input.disabled = !st.floor;
      toSel.disabled = !st.floor;
      $("#objection-btn").disabled = !st.floor;
      $("#rest-btn").disabled = !st.floor;
      if (st.floor) st.holdAsked = false;
      updateCount();
      updateMoves();
      body.classList.toggle("floor", st.floor);
      if (st.over) status.textContent = "The court has risen.";
      else if (st.watch) status.textContent = "Every seat is a model: watch.";
      else if (st.floor) status.textContent = st.two ? "Your turn: the " + sideWord() + " has the floor." : "The " + sideWord() + " has the floor.";
      else if (st.two && st.floorSide) status.textContent = "The " + st.floorSide + " has the floor: the other person's turn.";
      else if (st.holdAsked) status.textContent = "Hold it! You take the floor when this line ends.";
      else status.textContent = "The court is in session: wait for your turn.";
      if (st.two) $("#two-turn").textContent = st.over ? "" : st.floor ? "Your turn." : st.floorSide ? "The " + st.floorSide + "'s turn: wait." : "The court speaks.";
      if (st.floor && document.activeElement === document.body && !narrow.matches) input.focus();
    }

    function updateCount() {
      const n = chars(input.value);
      counter.textContent = n.toLocaleString("en") + " / " + MAX_CHARS.toLocaleString("en");
      counter.classList.toggle("over", n > MAX_CHARS);
      $("#send-btn").disabled = !st.floor || n === 0 || n > MAX_CHARS || !input.value.trim();
      const why = $("#speak-reason");
      why.textContent = st.over ? "" : !st.floor ? (st.holdAsked ? "" : "Speak waits for your turn.")
        : n > MAX_CHARS ? "Too long to speak: " + n.toLocaleString("en") + " characters, at most " + MAX_CHARS.toLocaleString("en") + ". Cut " + (n - MAX_CHARS).toLocaleString("en") + "."
        : !input.value.trim() ? "Write what you say, then Speak." : "";
      why.classList.toggle("bad", n > MAX_CHARS);
    }

    // updateMoves enables the cross-examination's moves for the situation.
    function updateMoves() {
      const cross = body.dataset.phase === "interrogation" && !st.over;
      const hold = $("#hold-btn");
      hold.disabled = !cross || st.floor || st.holdAsked || !st.game || (st.two && !!st.floorSide);
      for (const b of $$("[data-present]")) b.disabled = !(cross && st.floor && st.stand);
      for (const b of $$("[data-press]")) b.disabled = !(cross && st.floor);
      const hint = $("#record-hint");
      const standName = st.stand ? speakerInfo("Witness (" + nameOf(st.stand) + ")", "witness").name : "";
      hint.textContent = st.over ? "The trial is over."
        : st.watch ? "Watching: the record fills in as the witnesses testify." + (standName ? " On the stand: " + standName + "." : "")
        : !cross ? "Present and press work in the interrogation."
        : !st.stand ? "No witness on the stand yet: question one first, then present evidence against what they say."
        : "On the stand: " + standName + ". Present an item that contradicts a statement, or press one." + (st.floor ? "" : " (Wait for the floor.)");
    }

    function nameOf(stand) {
      const id = String(stand || "").replace(/^Witness_/, "");
      const w = ((st.kase && st.kase.witnesses) || []).find((x) => String(x.id) === id);
      return w ? String(w.name) : id;
    }

    function setCred(v, animate) {
      if (!Number.isFinite(v)) return;
      const prev = st.cred;
      st.cred = Math.max(0, Math.min(100, v));
      const m = $("#cred");
      m.setAttribute("aria-valuenow", String(st.cred));
      m.dataset.value = String(st.cred);
      $("#cred-fill").style.width = st.cred + "%";
      $("#cred-val").textContent = String(st.cred);
      m.classList.toggle("low", st.cred <= 30);
      if (animate && st.cred < prev) { m.classList.remove("hurt"); void m.offsetWidth; m.classList.add("hurt"); Sound.miss(); }
      if (animate && st.cred > prev) { m.classList.remove("gain"); void m.offsetWidth; m.classList.add("gain"); }
    }

    function setTurns(left, budget) {
      if (!Number.isFinite(left) || !Number.isFinite(budget) || budget <= 0) return;
      st.turnsLeft = left; st.budget = budget;
      const p = $("#turns-left");
      p.hidden = false;
      p.textContent = "Turns left: " + left + " / " + budget;
      p.classList.toggle("few", left <= 5);
    }

    // standing fills the credibility, the turns left, the stand and the exposed from a view.
    function standing(v) {
      if (!v) return;
      const cred = st.two && v.credibilities && Number.isFinite(v.credibilities[st.side]) ? v.credibilities[st.side] : v.credibility;
      if (Number.isFinite(cred)) setCred(cred, false);
      setTurns(v.turns_left, v.turn_budget);
      if (typeof v.stand === "string") st.stand = v.stand;
      if (Array.isArray(v.exposed)) { st.exposed = v.exposed.slice(); markExposed(); }
      updateMoves();
    }

    // --- SSE handlers: each one idempotent, keyed by the turn's index ---
    const on = {
      turn(d) {
        const idx = Number.isInteger(d.index) ? d.index : st.cursor;
        const wasNear = nearBottom();
        const li = turnNode(idx);
        st.current = idx;
        const replay = li.classList.contains("final");
        if (!replay) {
          fillTurn(li, d.speaker, d.role, d.phase, "", false);
          li.classList.add("streaming");
        }
        st.floorSide = "";
        setFloor(false);
        setPhase(d.phase);
        hideStatus();
        if (!replay) lineStarts(idx);
        follow(wasNear);
      },
      delta(d) {
        if (st.current === null) return;
        const li = turnNode(st.current);
        if (li.classList.contains("final")) return;
        hideStatus();
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
        if (stage.idx === st.current) { stage.typed = 0; lineEl.textContent = ""; }
      },
      end(d) {
        const t = d.turn || {};
        const idx = Number.isInteger(d.index) ? d.index : Number.isInteger(t.index) ? t.index : st.current !== null ? st.current : st.cursor;
        const wasNear = nearBottom();
        const li = turnNode(idx);
        const fresh = !li.classList.contains("final");
        fillTurn(li, t.speaker, t.role, t.phase, t.text, t.player, t);
        li.classList.add("final");
        st.turnData.set(idx, t);
        st.cursor = Math.max(st.cursor, idx + 1);
        st.current = null;
        setPhase(t.phase);
        recordTurn(idx, t);
        if (fresh && stage.idx === null) showLine(idx, true);
        if (fresh) { const vi = speakerInfo(t.speaker, t.role); Voice.say(t.text, vi.role, vi.key || vi.role); }
        if (!fresh && stage.idx === idx) lineEl.textContent = lineText(idx);
        if (String(t.role) === "witness" && fresh && st.freshExposure) st.freshExposure = null;
        // The Address menu goes back to "the court decides" after every line.
        toSel.value = "";
        follow(wasNear);
      },
      awaiting() {
        // In a two-person game the floor is one of the two people's: the view says whose.
        if (!st.two) setFloor(!st.watch);
        // The floor may open a new phase (the closing, after a rest) before its first line.
        api("GET", gamePath(gameID)).then((g) => {
          if (!g.ok || !g.data) return;
          standing(g.data);
          if (st.over) return;
          setPhase(g.data.phase);
          if (st.two) floorFrom(g.data);
        });
      },
      verdict(d) {
        st.verdict = Object.assign({}, st.verdict || {}, d);
        if (d.debrief && !st.two) st.debrief = d.debrief;
        st.over = true;
        setFloor(false);
        setPhase("verdict");
        if (st.es) { st.es.close(); st.es = null; }
        // The verdict scene follows the judge's last line on the stage.
        const wait = stage.done ? 400 : 1200;
        if (st.two) {
          // Each person's debrief is their side's, from the view.
          api("GET", gamePath(gameID)).then((g) => { const mine = g.ok && g.data && myDebrief(g.data); if (mine) st.debrief = mine; setTimeout(showVerdict, wait); });
          return;
        }
        setTimeout(showVerdict, wait);
      },
      error(d) {
        const msg = String((d && d.message) || "The court ran into a problem.");
        const box = $("#trial-error");
        notice(box, msg, "bad");
        hideStatus();
        if (d && d.detail) box.appendChild(el("details", { class: "detail" }, el("summary", {}, "Details for the curious"), el("p", {}, String(d.detail))));
        if (d && d.restart) {
          const btn = el("button", { type: "button", class: "btn btn-primary", id: "restart-btn" }, "Restart the trial");
          btn.addEventListener("click", restart);
          box.appendChild(el("p", {}, "The trial can start again from the first turn."));
          box.appendChild(btn);
          setFloor(false);
          if (st.es) { st.es.close(); st.es = null; }
        }
      },
      status(d) {
        const s = $("#court-status");
        const who = speakerInfo(stageEl.dataset.speaker, stageEl.dataset.role);
        s.textContent = (who.role === "witness" ? who.name + " is" : who.role === "prosecutor" ? "The prosecutor is" : "The judge is") + " thinking… (retrying)";
        if (d && d.message) s.title = String(d.message);
        s.hidden = false;
      },
      exposed(d) {
        const x = { contradiction: String(d.contradiction || ""), witness: String(d.witness || ""), evidence: String(d.evidence || "") };
        if (!st.exposed.some((e) => e.contradiction === x.contradiction)) st.exposed.push(x);
        st.freshExposure = x;
        banner("Objection!", "objection");
        Sound.objection();
        markExposed(x);
        if (stageEl.dataset.role === "witness" && speakerInfo(stageEl.dataset.speaker, "witness").key === x.witness && stage.idx !== null) drawStage(stage.idx);
      },
      credibility(d) {
        // A two-person game's event does not say whose credibility it is: read ours.
        if (!st.two) { setCred(Number(d.value), true); return; }
        api("GET", gamePath(gameID)).then((g) => { if (g.ok && g.data && g.data.credibilities) setCred(Number(g.data.credibilities[st.side]), true); });
      },
      // * stopped {"message"}: a replay's stream ends before a verdict (the store holds
      // no more of the trial).
      stopped(d) {
        st.over = true;
        replayStop();
        if (st.es) { st.es.close(); st.es = null; }
        setFloor(false);
        $("#watch-controls").hidden = true;
        notice($("#watch-status"), String((d && d.message) || "The replay has ended."), "warn");
      },
      hold() {
        banner("Hold it!", "hold");
        Sound.objection();
      },
      warning(d) {
        const left = Number(d.turns_left);
        notice($("#judge-warning"), "The judge warns: " + String(d.message || "few turns are left.") + (Number.isFinite(left) ? " (" + left + " turns left)" : ""), "warn");
        if (Number.isFinite(left) && st.budget) setTurns(left, st.budget);
      },
    };

    function hideStatus() { $("#court-status").hidden = true; }

    function connect() {
      listen(new EventSource(gamePath(gameID) + "/events"));
    }

    function listen(es) {
      st.es = es;
      for (const name of Object.keys(on)) {
        es.addEventListener(name, (ev) => {
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

    function seatPic(seat, role, key, name) {
      const pic = $(".seat-pic", seat);
      clear(pic);
      pic.appendChild(portrait(role, key, name, role === "witness" ? witnessLook(st.kase, key) : {}));
    }

    function highlight(role, speaker) {
      for (const seat of $$(".seat")) {
        const hit = seat.dataset.role === role && (role !== "witness" || seat.dataset.speaker === speaker);
        seat.classList.toggle("speaking", hit);
      }
      if (role === "witness") {
        const stand = $("#seat-witness");
        const info = speakerInfo(speaker, "witness");
        if (stand.dataset.speaker !== speaker) {
          stand.dataset.speaker = speaker;
          seatPic(stand, "witness", info.key, info.name);
          $(".seat-name", stand).textContent = info.name;
        }
        stand.classList.add("speaking", "occupied");
      }
    }

    async function send(text, extra) {
      const payload = Object.assign({ text }, extra || {});
      if (toSel.value && !payload.to && !payload.present && !payload.press) payload.to = toSel.value;
      setFloor(false);
      const r = await api("POST", gamePath(gameID) + "/" + sideWord(), payload);
      if (r.status === 202 || r.ok) {
        input.value = "";
        toSel.value = "";
        updateCount();
        notice($("#form-status"), "");
        return true;
      }
      if (r.status === 409) {
        notice($("#form-status"), "The court has not given you the floor yet; your text is kept.", "warn");
        resync();
        return false;
      }
      notice($("#form-status"), r.message, "bad");
      setFloor(true);
      return false;
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
      const text = rest ? (/^objection\b/i.test(rest) ? rest : "Objection: " + rest) : "Objection!";
      if (chars(text) > MAX_CHARS) return;
      banner("Objection!", "objection");
      Sound.objection();
      send(text, { objection: true, to: "Judge" });
    });
    $("#hold-btn").addEventListener("click", async () => {
      if (st.floor || st.over) return;
      st.holdAsked = true;
      updateMoves();
      banner("Hold it!", "hold");
      Sound.objection();
      const r = await api("POST", gamePath(gameID) + "/" + sideWord(), { hold: true });
      if (!(r.status === 202 || r.ok)) {
        st.holdAsked = false;
        notice($("#form-status"), r.message, "warn");
      }
      setFloor(st.floor);
    });
    $("#rest-btn").addEventListener("click", async () => {
      const btn = $("#rest-btn");
      if (!st.floor) return;
      if (Date.now() - st.restPrimed > 6000) {
        st.restPrimed = Date.now();
        btn.textContent = "Confirm: the " + sideWord() + " rests";
        btn.classList.add("primed");
        setTimeout(() => { if (Date.now() - st.restPrimed >= 6000) { btn.textContent = "Rest the " + sideWord(); btn.classList.remove("primed"); } }, 6100);
        return;
      }
      st.restPrimed = 0;
      btn.textContent = "Rest the " + sideWord();
      btn.classList.remove("primed");
      setFloor(false);
      const r = await api("POST", gamePath(gameID) + "/rest", {});
      if (r.status === 202 || r.ok) { notice($("#form-status"), "The " + sideWord() + " rests. Closing statements follow.", "ok"); return; }
      notice($("#form-status"), r.status === 409 ? "The " + sideWord() + " cannot rest right now." : r.message, "warn");
      if (r.status === 409) resync(); else setFloor(true);
    });

    async function resync() {
      const g = await api("GET", gamePath(gameID));
      if (g.ok && g.data && !st.over) { standing(g.data); floorFrom(g.data); }
    }

    async function restart() {
      const btn = $("#restart-btn");
      if (btn) btn.disabled = true;
      const r = await api("POST", gamePath(gameID) + "/restart", {});
      if (r.status === 202 || r.ok) { location.reload(); return; }
      notice($("#trial-error"), r.message, "bad");
    }

    function fillAddressees() {
      clear(toSel);
      toSel.append(el("option", { value: "" }, "Let the court decide"),
        el("option", { value: "Judge" }, "The Court (Judge)"),
        st.side === "prosecution" ? el("option", { value: "Defense" }, "Defense counsel") : el("option", { value: "Prosecutor" }, "The Prosecutor"));
      for (const w of (st.kase && st.kase.witnesses) || []) {
        toSel.appendChild(el("option", { value: "Witness_" + String(w.id) }, String(w.name) + (w.occupation ? ", " + String(w.occupation) : "") + " (witness)"));
      }
      toSel.value = "";
    }

    // ---- the court record: evidence, testimony, profiles, the case ----
    function showTab(name) {
      for (const t of $$(".tab")) {
        const on = t.id === "tab-" + name;
        t.setAttribute("aria-selected", on ? "true" : "false");
        $("#" + t.getAttribute("aria-controls")).hidden = !on;
      }
    }
    for (const t of $$(".tab")) t.addEventListener("click", () => showTab(t.id.replace("tab-", "")));

    function openRecord(open) {
      body.classList.toggle("record-open", open);
      $("#record-btn").setAttribute("aria-expanded", open ? "true" : "false");
      if (open && narrow.matches) $("#record").scrollIntoView({ block: "start" });
    }
    $("#record-btn").addEventListener("click", () => openRecord(!body.classList.contains("record-open")));
    $("#record-close").addEventListener("click", () => openRecord(false));
    function openBacklog(open) {
      $("#backlog").hidden = !open;
      $("#backlog-btn").setAttribute("aria-expanded", open ? "true" : "false");
      if (open) scroller.scrollTop = scroller.scrollHeight;
    }
    $("#backlog-btn").addEventListener("click", () => openBacklog($("#backlog").hidden));
    $("#backlog-close").addEventListener("click", () => openBacklog(false));

    function soundLabel() {
      const o = loadOptions();
      const b = $("#sound-btn");
      b.textContent = o.sound ? "Sound on" : "Muted";
      b.setAttribute("aria-pressed", o.sound ? "true" : "false");
    }
    $("#sound-btn").addEventListener("click", () => {
      const o = loadOptions();
      o.sound = !o.sound;
      saveOptions(o);
      Sound.unlock();
      Sound.apply();
      soundLabel();
    });
    soundLabel();

    function showRecord() {
      const c = st.kase;
      const rec = $("#record-body");
      clear(rec);
      if (!c) { rec.appendChild(el("p", { class: "muted" }, "The case file is not available.")); return; }
      rec.appendChild(caseFile(c, { headingLevel: "h3" }));
      $("#case-title").textContent = String(c.title || c.case_id || "");
      document.title = String(c.title || "Trial") + " · LLM Court";
      for (const w of c.witnesses || []) witnessIDByName.set(String(w.name), String(w.id));
      fillAddressees();
      // evidence, each with Present
      const ev = $("#rec-evidence");
      clear(ev);
      const items = el("ul", { class: "items" });
      for (const e of c.evidence || []) {
        const btn = el("button", { type: "button", class: "btn btn-present", "data-present": String(e.id), disabled: true }, "Present");
        btn.addEventListener("click", () => present(e));
        items.appendChild(el("li", { class: "item", "data-item": String(e.id) },
          el("div", { class: "item-head" }, el("span", { class: "tag" }, String(e.id)), el("strong", {}, String(e.name || ""))),
          e.description ? el("p", { class: "desc" }, String(e.description)) : null,
          el("p", { class: "item-note" }),
          btn));
      }
      ev.appendChild(items);
      // profiles
      const pp = $("#rec-people");
      clear(pp);
      const people = el("ul", { class: "people" });
      if (c.defendant) people.appendChild(el("li", { class: "person" }, portrait("witness", "defendant", String(c.defendant.name || ""), traitsOf(c.defendant)),
        el("div", {}, el("strong", {}, String(c.defendant.name || "")), el("span", { class: "occ" }, "The defendant"), c.defendant.description ? el("p", { class: "desc" }, String(c.defendant.description)) : null)));
      for (const w of c.witnesses || []) {
        people.appendChild(el("li", { class: "person", "data-witness": String(w.id) }, portrait("witness", String(w.id), String(w.name), traitsOf(w)),
          el("div", {}, el("strong", {}, String(w.name)), w.occupation ? el("span", { class: "occ" }, String(w.occupation)) : null,
            el("span", { class: "called called-" + String(w.called_by) }, CALLED_BY[String(w.called_by)] || ""),
            w.personality ? el("p", { class: "desc" }, String(w.personality)) : null,
            el("p", { class: "person-note" }))));
      }
      pp.appendChild(people);
      for (const li of $$("li.turn", list)) {
        const t = st.turnData.get(Number(li.dataset.index));
        if (li.dataset.role === "witness" || (t && t.role === "witness")) fillTurn(li, li.dataset.speaker, "witness", li.dataset.phase, $(".text", li).textContent, false, t);
      }
      $("#verdict-kind").textContent = String(c.kind) === "civil" ? "Civil claim: " + String(c.charge || "") : "Charge: " + String(c.charge || "");
      markExposed();
      updateMoves();
    }

    // recordTurn adds a witness's numbered statement to the testimony.
    function recordTurn(idx, t) {
      if (String(t.role) !== "witness") return;
      const info = speakerInfo(t.speaker, "witness");
      st.stand = "Witness_" + info.key;
      if (!t.statement) { updateMoves(); return; }
      const ol = $("#testimony");
      if ($("li[data-statement=\"" + t.statement + "\"]", ol)) return;
      const btn = el("button", { type: "button", class: "btn btn-press", "data-press": String(t.statement), disabled: true }, "Press");
      btn.addEventListener("click", () => press(t.statement, info.name));
      const li = el("li", { class: "statement", "data-statement": String(t.statement), "data-witness": info.key },
        el("div", { class: "stmt-head" }, el("span", { class: "tag stmt" }, "#" + t.statement), el("strong", {}, info.name)),
        el("p", { class: "stmt-text" }, String(t.text || "")), btn);
      const after = $$("li.statement", ol).find((n) => Number(n.dataset.statement) > t.statement);
      ol.insertBefore(li, after || null);
      $("#testimony-empty").hidden = true;
      $("#testimony-count").textContent = String($$("li.statement", ol).length);
      if (st.pressed.has(t.statement)) li.classList.add("pressed");
      updateMoves();
    }

    function markExposed() {
      for (const x of st.exposed) {
        const item = $("li.item[data-item=\"" + x.evidence + "\"]");
        if (item) { item.classList.add("exposed"); $(".item-note", item).textContent = "Broke " + nameOf(x.witness) + "'s testimony (" + x.contradiction + ")."; }
        const p = $("li.person[data-witness=\"" + x.witness + "\"]");
        if (p) { p.classList.add("exposed"); $(".person-note", p).textContent = "Caught in a contradiction (" + x.contradiction + ")."; }
        for (const s of $$("li.statement[data-witness=\"" + x.witness + "\"]")) s.classList.add("doubted");
      }
      const n = st.exposed.length;
      body.dataset.exposed = String(n);
    }

    async function present(e) {
      if (!st.floor || !st.stand) return;
      const typed = input.value.trim();
      const text = typed || "The " + sideWord() + " presents " + String(e.id) + ", " + String(e.name || "this item") + ". How do you explain this?";
      if (chars(text) > MAX_CHARS) return;
      st.presented.set(String(e.id), true);
      if (await send(text, { present: String(e.id) }) && narrow.matches) openRecord(false);
    }

    async function press(n, who) {
      if (!st.floor) return;
      const typed = input.value.trim();
      st.pressed.add(n);
      const li = $("li.statement[data-statement=\"" + n + "\"]");
      if (li) li.classList.add("pressed");
      banner("Hold it!", "hold");
      if (await send(typed, { press: n }) && narrow.matches) openRecord(false);
    }

    // ---- the verdict scene and the debrief ----
    function outcomeWords(outcome) {
      const civil = st.kase && String(st.kase.kind) === "civil";
      // The outcome is the player's (in a watched trial, the defense's).
      const forDefense = st.watch || st.side !== "prosecution";
      const acquit = forDefense ? outcome === "win" : outcome === "loss";
      if (outcome === "win" || outcome === "loss") return acquit ? (civil ? "Not liable" : "Not guilty") : (civil ? "Liable" : "Guilty");
      return "No verdict";
    }

    let verdictShown = false;
    function showVerdict() {
      const v = st.verdict || {};
      const panel = $("#verdict");
      const first = panel.hidden;
      panel.hidden = false;
      body.classList.add("verdict-open");
      panel.classList.toggle("win", v.outcome === "win");
      panel.classList.toggle("loss", v.outcome === "loss");
      $("#verdict-words").textContent = outcomeWords(v.outcome);
      const pros = !st.watch && st.side === "prosecution";
      const goalText = pros ? (st.kase && st.kase.prosecution_goal) || "the charge was proven" : (st.kase && st.kase.defense_goal) || "";
      const goal = goalText ? ": " + String(goalText).replace(/[.\s]+$/, "") + "." : ".";
      const whose = pros ? "The prosecution's goal" : "The defense goal";
      $("#verdict-goal").textContent = v.outcome === "win" ? whose + " was met" + goal : v.outcome === "loss" ? whose + " was not met" + goal : "";
      $("#verdict-justification").textContent = String(v.justification || "");
      $("#verdict-summary").textContent = String(v.summary || "");
      $("#verdict-summary-wrap").hidden = !v.summary;
      $("#defense-form").hidden = true;
      if (first && !verdictShown) {
        verdictShown = true;
        Sound.gavel();
        panel.scrollTop = 0;
      }
      showDebrief();
      if ((!v.summary || !v.justification || !st.debrief) && !st.summaryAsked && !replayID) {
        st.summaryAsked = true;
        api("GET", gamePath(gameID) + "/transcript").then((r) => {
          const tv = r.ok && r.data && r.data.verdict;
          if (r.ok && r.data && r.data.debrief && !st.debrief && !st.two) st.debrief = r.data.debrief;
          if (!tv) { showDebrief(); return; }
          st.verdict = Object.assign({ outcome: r.data.outcome }, tv, st.verdict || {});
          if (!st.verdict.summary && tv.summary) st.verdict.summary = tv.summary;
          if (!st.verdict.justification && tv.justification) st.verdict.justification = tv.justification;
          showVerdict();
        });
      }
    }

    function showDebrief() {
      const d = st.debrief;
      if (!d) return;
      $("#debrief").hidden = false;
      $("#debrief-h").textContent = st.watch ? "How the defense played" : "How you played";
      const g = $("#grade");
      clear(g);
      g.append(el("span", { class: "grade-letter" }, String(d.grade || "–")), el("span", { class: "grade-score" }, Number.isFinite(d.score) ? d.score + " / 100" : ""));
      g.dataset.grade = String(d.grade || "");
      const stats = $("#stats");
      clear(stats);
      const row = (k, v, id) => stats.append(el("dt", {}, k), el("dd", id ? { id } : {}, String(v)));
      row("Contradictions found", (d.found || 0) + " of " + (d.planted || 0), "stat-found");
      row("Credibility", (d.credibility ?? 0) + " / 100", "stat-cred");
      row("Items presented", (d.presented || 0) + ", " + (d.misses || 0) + (d.misses === 1 ? " miss" : " misses"), "stat-presented");
      row("Objections", (d.objections_sustained || 0) + " sustained, " + (d.objections_overruled || 0) + " overruled", "stat-objections");
      row("Turns used", (d.turns_used || 0) + (d.turn_budget ? " of " + d.turn_budget : "") + (st.watch ? " · the defense spoke " : " · you spoke ") + (d.defense_turns || 0) + " times", "stat-turns");
      const ul = $("#findings");
      clear(ul);
      for (const f of d.contradictions || []) {
        ul.appendChild(el("li", { class: "finding " + (f.found ? "found" : "missed") },
          el("p", { class: "finding-head" }, el("span", { class: "tag" }, String(f.id || "")), el("strong", {}, f.found ? "Found" : "Missed"),
            " — " + nameOf(f.witness) + " claimed: ", el("q", {}, String(f.claim || ""))),
          el("p", { class: "desc" }, "Broken by " + (Array.isArray(f.evidence) ? f.evidence.join(" or ") : String(f.evidence || "")) + (f.found && f.by ? " (you presented " + String(f.by) + ")" : "") + ": " + String(f.explanation || ""))));
      }
      if (!(d.contradictions || []).length) ul.appendChild(el("li", { class: "muted" }, "This case planted no contradiction."));
    }

    async function newGameOn(caseID, btn) {
      const o = loadOptions();
      const req = { case_id: String(caseID) };
      const seed = parseInt(o.seed, 10);
      req.seed = Number.isFinite(seed) ? seed : Math.floor(Math.random() * 1e6);
      const chosen = {};
      for (const role of ROLES) if (o.models[role]) chosen[role] = o.models[role];
      if (Object.keys(chosen).length) req.models = chosen;
      if (o.name || o.avatar) req.player = { name: String(o.name || ""), avatar: String(o.avatar || "") };
      if (st.side === "prosecution") {
        req.side = "prosecution";
        if (o.models.defense) req.models = Object.assign(req.models || {}, { defense: o.models.defense });
      }
      btn.disabled = true;
      const r = await api("POST", "/api/court/games", req);
      if (!r.ok || !r.data || !r.data.game_id) { btn.disabled = false; notice($("#verdict-status"), r.message || "The court did not open a game.", "bad"); return; }
      location.assign("/court/games/" + encodeURIComponent(r.data.game_id));
    }
    $("#again-btn").addEventListener("click", () => (replayID ? location.reload() : st.kase && newGameOn(st.kase.case_id, $("#again-btn"))));
    $("#next-btn").addEventListener("click", async () => {
      const r = await api("GET", "/api/court/cases");
      const cs = (r.ok && r.data && Array.isArray(r.data.cases)) ? r.data.cases : [];
      const i = cs.findIndex((c) => st.kase && c.case_id === st.kase.case_id);
      const next = cs[(i + 1) % Math.max(1, cs.length)];
      if (!next) { location.assign("/court"); return; }
      newGameOn(next.case_id, $("#next-btn"));
    });

    $("#judge-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const btn = $("#judge-btn");
      btn.disabled = true;
      const out = $("#scores");
      clear(out);
      notice($("#judge-status"), "The checklist judge is reading the transcript…");
      const req = {};
      if ($("#judge-model").value) req.model = $("#judge-model").value;
      const r = await api("POST", gamePath(gameID) + "/judge", req);
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

    // The bench: the judge, the two counsel (one of them the player, unless watching).
    function seats() {
      body.dataset.side = st.watch ? "watch" : st.side;
      seatPic($("#seat-judge"), "judge", "", "The Court");
      const mine = playerRole();
      const you = loadOptions().name || "You";
      seatPic($("#seat-prosecutor"), "prosecutor", "", mine === "prosecutor" ? "you" : "The Prosecutor");
      seatPic($("#seat-defense"), "defense", "", mine === "defense" ? "you" : "Defense Counsel");
      const person = st.two ? " (the other person)" : "";
      $(".seat-name", $("#seat-prosecutor")).textContent = mine === "prosecutor" ? you : "The Prosecutor" + person;
      $(".seat-name", $("#seat-defense")).textContent = mine === "defense" ? you : "Defense Counsel" + person;
      $("#seat-prosecutor").classList.toggle("mine", mine === "prosecutor");
      $("#seat-defense").classList.toggle("mine", mine === "defense");
      $("#rest-btn").textContent = "Rest the " + sideWord();
      $("#cred").setAttribute("aria-label", "Credibility of the " + (st.watch ? "defense" : sideWord()));
      fillAddressees();
    }
    seats();

    // A watched trial: no floor for anyone; its owner (the browser that started it,
    // which kept the watch token) paces it and shares the link; others just watch.
    function watchMode(v) {
      body.classList.add("watching");
      $("#defense-form").hidden = true;
      $("#again-btn").hidden = true;
      $("#next-btn").hidden = true;
      $("#watch-record").addEventListener("click", () => openRecord(!body.classList.contains("record-open")));
      $("#watch-bar").hidden = false;
      $("#standing").hidden = true;
      let tok = "";
      try { tok = localStorage.getItem(WATCH_KEY + gameID) || ""; } catch { tok = ""; }
      const fromURL = new URLSearchParams(location.search).get("token") || "";
      const owner = !!tok && tok !== fromURL;
      body.dataset.watchRole = owner ? "owner" : "watcher";
      $("#watch-label").textContent = owner ? "Your watched trial: every seat is a model" : "Watching live (read-only): every seat is a model";
      const link = tok || fromURL;
      if (link) {
        $("#watch-share").hidden = false;
        $("#watch-link").value = location.origin + "/court/games/" + encodeURIComponent(gameID) + "?token=" + encodeURIComponent(link);
      }
      if (!owner) return;
      $("#watch-controls").hidden = false;
      paused(!!v.paused);
      const sel = $("#speed-sel");
      const d = Number(v.delay_ms) || 0;
      if (!$$("option", sel).some((o) => Number(o.value) === d)) sel.appendChild(el("option", { value: String(d) }, (d / 1000) + " s between lines"));
      sel.value = String(d);
    }
    // A replay: the page paces it by its stream from the store. Pause closes the stream
    // after the lines already come; resume, a new pace or a skip (the rest with no
    // pause) open it again from the first turn not yet shown.
    // The default pace leaves time to read a line of a few sentences before the next.
    const replay = { delay: 4000, es: null, retry: 0 };
    function replayMode(info) {
      body.classList.add("watching", "replaying");
      $("#defense-form").hidden = true;
      $("#next-btn").hidden = true;
      $("#watch-record").addEventListener("click", () => openRecord(!body.classList.contains("record-open")));
      $("#watch-bar").hidden = false;
      $("#standing").hidden = true;
      body.dataset.watchRole = "replay";
      $("#watch-share").hidden = false;
      $("#watch-share label").textContent = "Link to this replay";
      $("#watch-link").value = location.origin + "/court/replays/" + encodeURIComponent(replayID);
      $("#watch-controls").hidden = false;
      // After the verdict: the replay again from its first line (there is no transcript
      // to download nor a checklist to run here: the trial is the store's).
      $(".after").hidden = true;
      $("#again-btn").textContent = "Replay from the start";
      const sel = $("#speed-sel");
      sel.value = String(replay.delay);
      paused(false);
      const when = info.updated ? new Date(info.updated) : null;
      $("#case-title").textContent = String(info.title || info.case_id || "");
      $("#watch-label").textContent = replayLabel(false);
      $("#watch-label").title = String(info.trial_id || replayID) + (when && !isNaN(when) ? " · " + when.toLocaleString() : "") + " · " + seatModels(info.models || {});
    }
    function replayLabel(p) {
      return p ? "Paused: the replay waits for you to resume" : "Replay of a stored trial: every seat was a model";
    }
    function replayConnect() {
      replayStop();
      if (st.over) return;
      const q = "?delay_ms=" + encodeURIComponent(String(replay.delay)) + "&from=" + encodeURIComponent(String(st.cursor));
      const es = new EventSource("/api/court/replays/" + encodeURIComponent(replayID) + q);
      replay.es = es;
      listen(es);
      // The stream ends after the verdict; anything else that closes it is a lost
      // connection, opened again from where the stage stands.
      es.onerror = () => {
        if (replay.es !== es) return;
        replayStop();
        if (st.over || st.paused) return;
        conn.hidden = false;
        conn.textContent = "Reconnecting to the court…";
        clearTimeout(replay.retry);
        replay.retry = setTimeout(() => { if (!st.paused && !st.over) replayConnect(); }, 1500);
      };
      es.addEventListener("open", () => { conn.hidden = true; });
    }
    function replayStop() {
      clearTimeout(replay.retry);
      if (replay.es) { replay.es.close(); if (st.es === replay.es) st.es = null; replay.es = null; }
    }

    function paused(p) {
      st.paused = p;
      const b = $("#pause-btn");
      b.textContent = p ? "Resume" : "Pause";
      $("#watch-label").textContent = replayID ? replayLabel(p) : p ? "Paused: the trial waits for you to resume" : "Your watched trial: every seat is a model";
      b.setAttribute("aria-pressed", p ? "true" : "false");
      body.classList.toggle("paused", p);
    }
    async function pace(control, bodyJSON) {
      const r = await api("POST", gamePath(gameID) + "/" + control, bodyJSON || {});
      if (r.ok && r.data) {
        if (typeof r.data.paused === "boolean") paused(r.data.paused);
        notice($("#watch-status"), "");
        return true;
      }
      notice($("#watch-status"), r.message, r.status === 409 ? "warn" : "bad");
      return false;
    }
    $("#pause-btn").addEventListener("click", () => {
      if (!replayID) { pace(st.paused ? "resume" : "pause"); return; }
      if (st.over) return;
      paused(!st.paused);
      if (st.paused) replayStop(); else replayConnect();
    });
    $("#speed-sel").addEventListener("change", () => {
      if (!replayID) { pace("speed", { delay_ms: Number($("#speed-sel").value) || 0 }); return; }
      replay.delay = Number($("#speed-sel").value) || 0;
      if (!st.paused) replayConnect();
    });
    $("#skip-btn").addEventListener("click", async () => {
      const b = $("#skip-btn");
      b.disabled = true;
      Voice.cancel();
      if (replayID) {
        replay.delay = 0;
        $("#speed-sel").value = "0";
        paused(false);
        replayConnect();
        notice($("#watch-status"), "Skipping to the verdict…", "ok");
        return;
      }
      if (await pace("skip")) notice($("#watch-status"), "Skipping to the verdict…", "ok");
      else b.disabled = false;
    });
    $("#copy-link").addEventListener("click", async () => {
      const inp = $("#watch-link");
      inp.select();
      try { await navigator.clipboard.writeText(inp.value); notice($("#watch-status"), "Link copied.", "ok"); } catch { /* the text stays selected to copy */ }
    });

    // The debrief of this page's side: in a two-person game the one of debriefs whose
    // side is ours (debrief is the creator's).
    function myDebrief(v) {
      if (!st.two) return v.debrief || null;
      const mine = (Array.isArray(v.debriefs) ? v.debriefs : []).find((d) => d && d.side === st.side);
      return mine || (v.debrief && v.debrief.side === st.side ? v.debrief : null);
    }

    // A two-person game: this page's side (see SEAT_KEY), and for the creator the
    // invitation link to hand to the other person.
    function twoMode(v) {
      st.two = true;
      const creatorSide = v.side === "prosecution" ? "prosecution" : "defense";
      const other = creatorSide === "prosecution" ? "defense" : "prosecution";
      let rec = null;
      try { rec = JSON.parse(localStorage.getItem(SEAT_KEY + gameID) || "null"); } catch { rec = null; }
      const fromURL = new URLSearchParams(location.search).get("token") || "";
      if (rec && fromURL && fromURL === rec.invite_token) {
        // The creator's browser followed its own invitation: it now holds that token.
        rec.as = "invite";
        try { localStorage.setItem(SEAT_KEY + gameID, JSON.stringify(rec)); } catch { /* kept this visit */ }
      }
      const creator = !!rec && rec.as !== "invite";
      st.side = creator ? creatorSide : other;
      body.classList.add("two-players");
      body.dataset.seat = creator ? "creator" : "invited";
      $("#again-btn").hidden = true;
      $("#next-btn").hidden = true;
      const bar = $("#two-bar");
      bar.hidden = false;
      $("#two-label").textContent = "You: the " + st.side + " · the other person: the " + (st.side === "prosecution" ? "defense" : "prosecution") + ".";
      if (creator && rec.invite_url) {
        $("#invite-share").hidden = false;
        $("#invite-link").value = location.origin + String(rec.invite_url);
      }
    }
    $("#copy-invite").addEventListener("click", async () => {
      const inp = $("#invite-link");
      inp.select();
      try { await navigator.clipboard.writeText(inp.value); notice($("#two-status"), "Invitation copied: send it to the other person.", "ok"); } catch { notice($("#two-status"), "Select the link and copy it.", "warn"); }
    });

    function voicesLabel() {
      const o = loadOptions();
      const b = $("#voices-btn");
      b.textContent = o.voices ? "Voices on" : "Voices off";
      b.setAttribute("aria-pressed", o.voices ? "true" : "false");
      b.hidden = !Voice.available();
    }
    $("#voices-btn").addEventListener("click", () => {
      const o = loadOptions();
      o.voices = !o.voices;
      saveOptions(o);
      if (!o.voices) Voice.cancel();
      voicesLabel();
    });
    voicesLabel();

    setFloor(false);
    setPhase(body.dataset.phase || "introduction");
    if (replayID) {
      return (async () => {
        const r = await api("GET", "/api/court/replays/" + encodeURIComponent(replayID) + "/info");
        if (!r.ok || !r.data) {
          notice($("#trial-error"), r.message || "This stored trial could not be loaded.", "bad");
          return;
        }
        st.kase = r.data.case || null;
        st.watch = true;
        seats();
        replayMode(r.data);
        showRecord();
        setFloor(false);
        replayConnect();
      })();
    }
    return (async () => {
      const g = await api("GET", gamePath(gameID));
      if (!g.ok || !g.data) {
        notice($("#trial-error"), g.message || "This game could not be loaded.", "bad");
        return;
      }
      st.game = g.data;
      st.kase = g.data.case || null;
      st.side = g.data.side === "prosecution" ? "prosecution" : "defense";
      st.watch = !!g.data.watch;
      if (g.data.two_players) twoMode(g.data);
      seats();
      if (st.watch) watchMode(g.data);
      for (const w of (st.kase && st.kase.witnesses) || []) witnessIDByName.set(String(w.name), String(w.id));
      const turns = Array.isArray(g.data.turns) ? g.data.turns : [];
      turns.forEach((t, i) => {
        const li = turnNode(i);
        fillTurn(li, t.speaker, t.role, t.phase, t.text, t.player, t);
        li.classList.add("final");
        st.turnData.set(i, t);
      });
      st.cursor = 0;
      setPhase(g.data.phase);
      showRecord();
      turns.forEach((t, i) => recordTurn(i, t));
      standing(g.data);
      if (myDebrief(g.data)) st.debrief = myDebrief(g.data);
      for (const li of $$("li.turn", list)) li.classList.add("final");
      if (turns.length) showLine(turns.length - 1, true);
      if (!g.data.outcome && turns.length) {
        // The voices read what has just been said: a trial just opened from its first
        // line, a trial joined later from the line on the stage.
        const young = turns.length < 4 && !turns.some((t) => t.player);
        for (const t of turns.slice(young ? 0 : turns.length - 1)) {
          const vi = speakerInfo(t.speaker, t.role);
          Voice.say(t.text, vi.role, vi.key || vi.role);
        }
      }
      if (g.data.outcome) {
        st.over = true;
        st.verdict = { outcome: g.data.outcome };
        showVerdict();
        setFloor(false);
        return;
      }
      floorFrom(g.data);
      connect();
    })();
  }

  // ---- start ------------------------------------------------------------------------

  document.documentElement.classList.add("js");
  const body = document.body;
  window.llmCourtReady = body.dataset.page === "menu" ? menuPage() : body.dataset.page === "game" ? gamePage(body) : Promise.resolve();
})();

// keeper.js: "Talk your way past the Keeper". The player chooses a pseudonym and whether
// to share, starts a round against a Keeper model, and puts one statement per scenario
// to it; the ruling, the Keeper's reason and the running score come back from
// /api/keeper. Every text a player or a model wrote is set with textContent.
(() => {
  'use strict';
  const $ = (id) => document.getElementById(id);
  if (!$('kp')) return;
  let state = { player: null, models: [], styles: [], board: [] };
  let round = null;

  const api = async (method, path, body) => {
    const res = await fetch('/api/keeper' + path, { method, credentials: 'same-origin',
      headers: body ? { 'Content-Type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
    const j = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(j.error || ('the server answered ' + res.status));
    return j;
  };
  const say = (el, text, bad) => { el.textContent = text; el.classList.toggle('kp-bad', !!bad); };
  const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };

  const showPlayer = () => {
    const p = state.player;
    if (p) {
      $('kp-pseudonym').value = p.pseudonym;
      $('kp-share').checked = p.share;
    }
    $('kp-round').hidden = !p || !!state.no_model;
    const sel = $('kp-model');
    if (sel.options.length === 0) {
      for (const m of state.models) sel.append(el('option', '', m));
    }
  };

  const verdictText = (a) => {
    if (a.win) return 'Automatic success: you talked your way past the Keeper.';
    if (a.ruling === 'roll') return 'Roll' + (a.named_skill ? ' ' + a.named_skill : '') + ': the Keeper wants the dice.';
    if (a.ruling === 'refused') return 'The Keeper refused to rule: no win.';
    return 'The Keeper\u2019s answer could not be read as a ruling: no win.';
  };

  const showRound = () => {
    const r = round;
    $('kp-score').textContent = r ? 'Score ' + r.score + ' of ' + r.played + (r.done ? ' \u2014 round over' : ' \u00b7 scenario ' + Math.min(r.played + 1, r.length) + ' of ' + r.length) : '';
    $('kp-start').hidden = !!(r && !r.done);
    $('kp-new').textContent = r && r.done ? 'Play another round' : 'Start a round';
    const sc = r && r.scenario;
    $('kp-scenario').hidden = !sc;
    if (sc) {
      $('kp-number').textContent = 'Scenario ' + sc.number + ' of ' + r.length;
      $('kp-setting').textContent = sc.setting;
      $('kp-skill').textContent = sc.skill;
      $('kp-context').textContent = sc.context;
      $('kp-action').textContent = sc.action;
    }
    const h = $('kp-history');
    h.replaceChildren();
    for (const a of (r ? r.attempts : [])) {
      const li = el('li', a.win ? 'kp-win' : 'kp-loss');
      const head = el('p', 'kp-h-head');
      head.append(el('span', 'kp-tag', a.win ? 'Through' : 'Roll'), ' ', el('span', '', a.setting + ' \u00b7 ' + a.skill + ' \u00b7 ' + a.style));
      li.append(head, el('p', 'kp-h-statement', a.statement), el('p', 'kp-h-reason', a.reason));
      h.append(li);
    }
  };

  const showBoard = () => {
    const t = $('kp-board');
    const styles = state.styles;
    const head = el('tr');
    head.append(el('th', '', 'Keeper'), el('th', 'num', 'All'));
    for (const s of styles) head.append(el('th', 'num', s === 'Neutral' ? 'Plain' : s));
    t.tHead.replaceChildren(head);
    const body = t.tBodies[0];
    body.replaceChildren();
    const cell = (c) => {
      const td = el('td', 'num');
      if (!c || !c.attempts) { td.textContent = '\u2014'; return td; }
      td.append(c.passed + ' / ' + c.attempts, el('span', 'kp-pct', Math.round(100 * c.passed / c.attempts) + '%'));
      return td;
    };
    for (const row of state.board) {
      const tr = el('tr');
      tr.dataset.model = row.model;
      const all = cell({ attempts: row.attempts, passed: row.passed }); all.dataset.style = 'all';
      tr.append(el('td', '', row.model), all);
      for (const s of styles) { const td = cell(row.by_style[s]); td.dataset.style = s; tr.append(td); }
      body.append(tr);
    }
    $('kp-board-empty').hidden = state.board.length > 0;
    t.hidden = state.board.length === 0;
  };

  const load = async () => {
    state = await api('GET', '/state');
    showPlayer();
    showBoard();
  };

  $('kp-player-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const status = $('kp-player-status');
    try {
      const p = await api('POST', '/player', { pseudonym: $('kp-pseudonym').value, share: $('kp-share').checked });
      state.player = { pseudonym: p.pseudonym, share: p.share };
      say(status, p.share ? 'Saved. Your statements may be shared.' : 'Saved. Your statements stay on this server.');
      showPlayer();
    } catch (err) {
      say(status, 'Not saved: ' + err.message, true);
    }
  });

  $('kp-new').addEventListener('click', async () => {
    const status = $('kp-attempt-status');
    try {
      round = await api('POST', '/rounds', { model: $('kp-model').value });
      $('kp-ruling').hidden = true;
      say(status, '');
      showRound();
      $('kp-statement').focus();
    } catch (err) {
      say($('kp-player-status'), 'No round: ' + err.message, true);
    }
  });

  $('kp-attempt').addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!round) return;
    const status = $('kp-attempt-status');
    const send = $('kp-send');
    const style = (document.querySelector('input[name=style]:checked') || {}).value;
    send.disabled = true;
    say(status, 'The Keeper is ruling\u2026');
    try {
      const res = await api('POST', '/rounds/' + encodeURIComponent(round.id) + '/attempts', { style, statement: $('kp-statement').value });
      round = res.round;
      const v = $('kp-verdict');
      v.textContent = 'Scenario ' + res.attempt.number + ': ' + verdictText(res.attempt);
      v.className = 'kp-verdict ' + (res.attempt.win ? 'kp-win' : 'kp-loss');
      $('kp-reason').textContent = res.attempt.reason;
      $('kp-ruling').hidden = false;
      $('kp-statement').value = '';
      say(status, '');
      showRound();
      state.board = await api('GET', '/board');
      showBoard();
      $('kp-ruling').scrollIntoView({ block: 'start' });
    } catch (err) {
      say(status, err.message, true);
    } finally {
      send.disabled = false;
    }
  });

  load().catch((err) => say($('kp-player-status'), 'The game could not load: ' + err.message, true));
})();

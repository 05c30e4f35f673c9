// review.js: one Keeper's review queue. Samples come from /api/review/{id}/queue and are
// shown with textContent only. A decision shows the next sample at once and is sent the
// moment it is made; requests go one after another, so an undo never overtakes the
// decision it takes back. A request the server refuses puts its sample back.
(() => {
  'use strict';
  // The agreement page: each adjudication form is sent as JSON, then the page reloads.
  for (const f of document.querySelectorAll('form.rv-adjudicate')) {
    f.addEventListener('submit', async (e) => {
      e.preventDefault();
      const v = (name) => { const el = f.elements[name]; return el ? el.value : ''; };
      const body = { reviewer: v('adjudicator'), sample: v('sample'), decision: v('decision'), note: v('note'),
        set: { requires_roll: v('set_requires_roll'), skill: v('set_skill'), statement: v('set_statement') } };
      const problem = f.querySelector('.rv-form-error');
      try {
        const res = await fetch('/api/review/' + encodeURIComponent(f.dataset.project) + '/adjudicate', {
          method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
        const j = await res.json().catch(() => ({}));
        if (!res.ok) throw new Error(j.error || ('the server answered ' + res.status));
        location.hash = 's-' + body.sample;
        location.reload();
      } catch (err) {
        problem.textContent = 'Not saved: ' + err.message;
      }
    });
  }
  const root = document.getElementById('rv');
  if (!root) return;
  const project = root.dataset.project;
  const reviewer = root.dataset.reviewer;
  const api = (p) => '/api/review/' + encodeURIComponent(project) + p;
  const $ = (id) => document.getElementById(id);

  let queue = [];        // what is left, in order
  const done = [];       // decided in this visit, latest last (for undo)
  let progress = { assigned: 0, decided: 0 };
  let chain = Promise.resolve();
  let pending = 0;
  let form = null;       // the open form, or null

  const text = (id, v) => { $(id).textContent = v == null || v === '' ? '—' : String(v); };

  function showError(msg) {
    const e = $('rv-error');
    e.textContent = msg;
    e.hidden = !msg;
  }

  function showProgress() {
    let p = progress.decided + ' of ' + progress.assigned + ' decided · ' + queue.length + ' left in this visit';
    if (pending) p += ' · saving…';
    $('rv-progress').textContent = p;
    root.dataset.pending = String(pending);
  }

  function show() {
    const cur = queue[0];
    $('rv-card').hidden = !cur;
    $('rv-done').hidden = !!cur;
    if (cur) {
      text('f-id', cur.id);
      text('f-setting', cur.setting);
      text('f-skill', cur.skill);
      text('f-category', cur.category);
      text('f-style', cur.style + ' · written by ' + cur.generator);
      text('f-roll', cur.requires_roll ? 'a roll is required' : 'automatic success');
      text('f-gold', cur.gold_skill);
      text('f-prior', cur.review_status ? cur.review_status + ' by ' + cur.reviewed_by : 'none');
      text('f-slot', cur.slot === 3 ? 'third review' : 'review ' + cur.slot + ' of 2 (blind)');
      text('f-context', cur.context);
      text('f-statement', cur.statement);
      text('f-truth', cur.truth);
    }
    root.dataset.shown = cur ? cur.id : '';
    root.dataset.shownAt = String(performance.now());
    showProgress();
  }

  // send queues a POST after the ones before it.
  function send(path, body, onFail) {
    pending++;
    showProgress();
    chain = chain.then(async () => {
      try {
        const res = await fetch(api(path), {
          method: 'POST', credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
        });
        const j = await res.json().catch(() => ({}));
        if (!res.ok) throw new Error(j.error || ('the server answered ' + res.status));
        progress = j.progress;
        showError('');
      } catch (e) {
        showError('Not saved: ' + e.message);
        onFail();
      } finally {
        pending--;
        showProgress();
      }
    });
  }

  function decide(decision, set, note) {
    const cur = queue.shift();
    if (!cur) return;
    done.push(cur);
    progress.decided++;
    closeForm();
    show();
    send('/decide', { reviewer, sample: cur.id, decision, set, note }, () => {
      const i = done.lastIndexOf(cur);
      if (i >= 0) done.splice(i, 1);
      queue.unshift(cur);
      show();
    });
  }

  function undo() {
    const last = done.pop();
    if (!last) return;
    queue.unshift(last);
    progress.decided = Math.max(0, progress.decided - 1);
    closeForm();
    show();
    send('/undo', { reviewer, sample: last.id }, () => {});
  }

  function openForm(id) {
    const cur = queue[0];
    if (!cur) return;
    form = $(id);
    form.hidden = false;
    if (id === 'rv-correct') {
      $('c-statement').value = cur.statement;
      $('c-roll').value = String(cur.requires_roll);
      $('c-skill').value = cur.skill;
      $('c-gold').value = cur.gold_skill;
      $('c-truth').value = cur.truth || '';
      $('c-note').value = '';
      $('c-statement').focus();
    } else {
      $('r-note').value = '';
      $('r-note').focus();
    }
  }

  function closeForm() {
    if (form) form.hidden = true;
    form = null;
    if (document.activeElement && document.activeElement.blur) document.activeElement.blur();
  }

  $('rv-correct').addEventListener('submit', (e) => {
    e.preventDefault();
    const cur = queue[0];
    if (!cur) return;
    const note = $('c-note').value.trim();
    const set = {};
    const put = (field, value, was) => { if (value !== was) set[field] = value; };
    put('statement', $('c-statement').value, cur.statement);
    put('requires_roll', $('c-roll').value, String(cur.requires_roll));
    put('skill', $('c-skill').value, cur.skill);
    put('gold_skill', $('c-gold').value, cur.gold_skill);
    put('truth', $('c-truth').value, cur.truth || '');
    if (Object.keys(set).length === 0) { showError('A correction changes at least one field.'); return; }
    if (!note) { showError('Say why in the note.'); $('c-note').focus(); return; }
    decide('correct', set, note);
  });
  $('rv-reject').addEventListener('submit', (e) => {
    e.preventDefault();
    const note = $('r-note').value.trim();
    if (!note) { showError('Say why in the note.'); return; }
    decide('reject', null, note);
  });
  for (const b of document.querySelectorAll('.rv-cancel')) b.addEventListener('click', closeForm);
  $('k-approve').addEventListener('click', () => decide('approve', null, ''));
  $('k-correct').addEventListener('click', () => openForm('rv-correct'));
  $('k-reject').addEventListener('click', () => openForm('rv-reject'));
  $('k-undo').addEventListener('click', undo);

  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) {
      if (form && e.key === 'Enter') { e.preventDefault(); form.requestSubmit(); }
      return;
    }
    if (form) {
      if (e.key === 'Escape') { e.preventDefault(); closeForm(); }
      return;
    }
    const act = { a: () => decide('approve', null, ''), c: () => openForm('rv-correct'), r: () => openForm('rv-reject'), u: undo }[e.key];
    if (act) { e.preventDefault(); swallow = e.key; act(); }
  });
  // The key that opened a form must not also type itself into the field it focused
  // (a browser drops it after preventDefault; a synthetic char event may not).
  let swallow = null;
  document.addEventListener('keypress', (e) => {
    if (swallow && e.key === swallow) e.preventDefault();
    swallow = null;
  }, true);
  document.addEventListener('keyup', () => { swallow = null; }, true);

  fetch(api('/queue?reviewer=' + encodeURIComponent(reviewer)), { credentials: 'same-origin' })
    .then(async (res) => {
      const j = await res.json().catch(() => ({}));
      if (!res.ok) throw new Error(j.error || ('the server answered ' + res.status));
      queue = j.samples;
      progress = j.progress;
      root.dataset.ready = '1';
      show();
    })
    .catch((e) => showError('The queue could not be loaded: ' + e.message));
})();

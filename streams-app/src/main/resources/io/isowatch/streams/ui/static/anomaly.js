'use strict';
// One anomaly: facts, the server-rendered SVG graph inlined (so it is part of the DOM), the
// explanation, the cycle and every transaction's operations.

(() => {
  const { el, getJson, time, seconds, setStatus } = IsoWatch;
  const id = new URLSearchParams(location.search).get('id');

  function edgeText(e) {
    const label = e.key === null ? e.kind : `${e.kind}(${e.key}=${e.value})`;
    return el('li', {}, e.from, ' —', el('span', { class: 'edge-kind ' + e.kind }, label), '→ ', e.to);
  }

  function opChip(o) {
    return el('span', { class: 'op ' + o.t }, `${o.t}(${o.k},${o.v === null ? 'null' : o.v})`);
  }

  async function load() {
    if (!id) throw Object.assign(new Error('no anomaly id in the address'), { status: 404 });
    const base = '/api/anomalies/' + encodeURIComponent(id);
    const a = await getJson(base);
    document.title = 'IsoWatch · ' + a.displayName + ' in ' + a.tenant;
    document.getElementById('a-name').textContent = a.displayName;
    document.getElementById('a-type').textContent = a.type;
    document.getElementById('a-violates').replaceChildren(
      el('span', { class: 'hint' }, 'violates '), ...a.violates.map(l => el('span', { class: 'badge' }, l)),
      a.breaksPromise ? el('span', { class: 'tag promise-broken' }, 'breaks its tenant\'s promise')
        : el('span', { class: 'tag promise-allowed' }, 'allowed by its tenant\'s promise'));
    document.getElementById('a-tenant').replaceChildren(
      el('a', { href: '/?tenant=' + encodeURIComponent(a.tenant) }, a.tenant));
    document.getElementById('a-detected').textContent = time(a.detectedAtMicros);
    document.getElementById('a-latency').textContent = seconds(a.detectionLatencyMicros);
    document.getElementById('a-id').textContent = a.id;
    // A retraction withdraws the anomaly: say so first, with the checker's reason.
    document.getElementById('a-explanation').textContent = a.retraction
      ? 'RETRACTED at ' + time(a.retraction.retractedAtMicros) + ' (' + a.retraction.causeTxn + ' arrived): '
        + a.retraction.reason + '\n\nAs first published:\n' + a.explanation
      : a.explanation;
    document.getElementById('a-name').classList.toggle('retracted', Boolean(a.retraction));
    document.getElementById('a-cycle').replaceChildren(...(a.cycle.length ? a.cycle.map(edgeText)
      : [el('li', { class: 'hint' }, 'Not a cycle: see the explanation.')]));
    document.getElementById('a-txns').replaceChildren(...a.transactions.map(t => el('tr', { 'data-txn': t.txn },
      el('td', { class: 'mono' }, t.txn), el('td', { class: 'mono' }, t.session),
      el('td', { class: 'num' }, t.seq === null ? '—' : String(t.seq)),
      el('td', { class: 'status-' + t.status }, t.status.toLowerCase()),
      el('td', { class: 'mono' }, time(t.startMicros)), el('td', { class: 'mono' }, time(t.endMicros)),
      el('td', {}, ...t.ops.map(opChip)))));
    document.getElementById('a-svg-link').href = base + '/graph.svg';
    // The SVG is parsed as XML and adopted into the page (no HTML parsing of its text).
    const r = await fetch(base + '/graph.svg', { credentials: 'same-origin' });
    if (!r.ok) throw Object.assign(new Error('graph: HTTP ' + r.status), { status: r.status });
    const doc = new DOMParser().parseFromString(await r.text(), 'image/svg+xml');
    if (doc.getElementsByTagName('parsererror').length) throw new Error('graph: not well-formed SVG');
    document.getElementById('graph').replaceChildren(document.importNode(doc.documentElement, true));
    document.getElementById('anomaly').hidden = false;
    setStatus(true, 'loaded ' + new Date().toLocaleTimeString());
  }

  load().catch(e => {
    const box = document.getElementById('missing');
    box.hidden = false;
    box.textContent = e.status === 401 ? 'Token required: open this page with ?token=… appended.'
      : e.status === 404 ? 'No such anomaly is held by this checker (unknown id, or older than ui.max.anomalies).'
        : 'Could not load the anomaly: ' + e.message;
    setStatus(false, 'error');
  });
})();

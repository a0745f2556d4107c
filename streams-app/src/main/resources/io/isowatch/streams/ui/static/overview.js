'use strict';
// The overview: tenant cards and the anomaly feed, refreshed every two seconds. Filters live in the
// page's query string, so a filtered feed can be bookmarked.

(() => {
  const { el, svgEl, getJson, time, seconds, compact, setStatus, chart } = IsoWatch;
  const REFRESH_MS = 2000;
  const known = new Set();
  let firstLoad = true;

  const params = new URLSearchParams(location.search);
  const selects = {
    type: document.getElementById('f-type'),
    level: document.getElementById('f-level'),
    tenant: document.getElementById('f-tenant'),
  };
  for (const [name, select] of Object.entries(selects)) {
    if (params.get(name)) select.append(el('option', { value: params.get(name) }, params.get(name)));
    select.value = params.get(name) || '';
    select.addEventListener('change', () => {
      const q = new URLSearchParams();
      for (const [n, s] of Object.entries(selects)) if (s.value) q.set(n, s.value);
      history.replaceState(null, '', q.toString() ? '?' + q : location.pathname);
      refresh();
    });
  }

  function fillOptions(select, values, allLabel) {
    const current = select.value;
    const wanted = ['', ...values];
    if (current && !wanted.includes(current)) wanted.push(current);
    const have = [...select.options].map(o => o.value);
    if (have.join('\u0000') === wanted.join('\u0000')) return;
    select.replaceChildren(...wanted.map(v => el('option', { value: v }, v || allLabel)));
    select.value = current;
  }

  function tenantCard(t) {
    const levels = el('div', { class: 'levels' });
    for (const l of t.levels) {
      levels.append(el('div', { class: 'level ' + l.verdict, title: l.reason || 'no anomaly, nothing undecidable' },
        el('span', { class: 'name' }, l.level), el('span', { class: 'verdict' }, l.verdict)));
    }
    if (t.levels.length === 0) levels.append(el('span', { class: 'empty' }, 'no verdict yet'));
    const throughput = svgEl('svg', { class: 'throughput', role: 'img', 'aria-label': 'throughput' });
    const latency = svgEl('svg', { class: 'latency', role: 'img', 'aria-label': 'detection latency' });
    chart(throughput, t.throughput.map(p => ({ x: p.atMicros, y: p.txnPerSecond })),
      { unit: '/s', color: '#1565c0', empty: 'two verdicts needed' });
    chart(latency, t.latency.map(p => ({ x: p.atMicros, y: p.seconds,
      label: p.name + ': ' + seconds(p.seconds * 1e6) })),
      { unit: 's', color: '#c62828', dots: true, empty: 'no anomaly' });
    const link = el('a', { href: '/?tenant=' + encodeURIComponent(t.tenant) }, t.tenant);
    return el('div', { class: 'tenant', 'data-tenant': t.tenant },
      el('header', {}, el('h3', {}, link),
        el('span', { class: 'meta' }, t.atMicros ? 'verdict at ' + time(t.atMicros) : '')),
      promiseLine(t.promise),
      levels,
      el('div', { class: 'stats' },
        el('span', {}, el('b', {}, compact(t.transactionsChecked || 0)), ' transactions checked'),
        el('span', {}, el('b', {}, String(t.anomaliesSeen)), ' anomalies'),
        el('span', {}, el('b', {}, String(t.pendingReads || 0)), ' pending reads')),
      el('div', { class: 'charts' },
        el('div', { class: 'chart' }, el('h4', {}, 'Throughput: transactions checked per second'), throughput),
        el('div', { class: 'chart' }, el('h4', {}, 'Detection latency per anomaly (s)'), latency)));
  }

  // The tenant's promise: "promise broken" is the alarm; "weaker than X but allowed" is not.
  function promiseLine(p) {
    if (!p) return el('div', { class: 'promise none' }, 'promised nothing: every anomaly is allowed');
    const parts = [el('span', { class: 'promise-spec' }, 'promises ' + p.spec),
      el('span', { class: 'hint' }, ' (' + (p.promised.length ? p.promised.join(', ') : 'no level') + ') ')];
    if (p.outcome === 'BROKEN') {
      parts.push(el('span', { class: 'tag promise-broken' }, 'PROMISE BROKEN: ' + p.broken.join(', ')));
    } else if (p.outcome === 'UNDECIDED') {
      parts.push(el('span', { class: 'tag' }, 'undecided: ' + p.undecided.join(', ')));
    } else if (p.outcome === 'KEPT') {
      parts.push(el('span', { class: 'tag promise-kept' }, 'kept'));
    }
    if (p.weakerThan) {
      parts.push(el('span', { class: 'tag promise-allowed' }, 'weaker than ' + p.weakerThan + ' but allowed'));
    }
    if (p.unchecked.length) {
      parts.push(el('span', { class: 'hint', title: 'not decided by the checker (check.levels)' },
        ' not checked: ' + p.unchecked.join(', ')));
    }
    return el('div', { class: 'promise' + (p.outcome === 'BROKEN' ? ' broken' : '') }, ...parts);
  }

  function feedRow(a) {
    const href = '/anomaly.html?id=' + encodeURIComponent(a.id);
    const row = el('tr', { class: 'anomaly-row' + (!firstLoad && !known.has(a.id) ? ' fresh' : '')
        + (a.retraction ? ' retracted' : ''),
      'data-anomaly-id': a.id },
      el('td', { class: 'mono' }, time(a.detectedAtMicros)),
      el('td', {}, a.tenant),
      el('td', {}, el('a', { class: 'anomaly-name', href }, a.displayName),
        a.name ? el('span', { class: 'tag' }, a.type) : null,
        a.retraction ? el('span', { class: 'tag retracted-tag', title: a.retraction.reason }, 'retracted') : null,
        a.breaksPromise ? el('span', { class: 'tag promise-broken' }, 'promise broken')
          : el('span', { class: 'tag promise-allowed' }, 'allowed')),
      el('td', {}, ...a.violates.map(l => el('span', { class: 'badge' }, l))),
      el('td', { class: 'txn-list' }, a.txns.join(', ')),
      el('td', { class: 'num' }, seconds(a.detectionLatencyMicros)));
    row.addEventListener('click', e => { if (e.target.tagName !== 'A') location.href = href; });
    return row;
  }

  async function refresh() {
    try {
      const q = new URLSearchParams();
      for (const [n, s] of Object.entries(selects)) if (s.value) q.set(n, s.value);
      const [tenants, feed] = await Promise.all([getJson('/api/tenants'), getJson('/api/anomalies?' + q)]);
      const grid = document.getElementById('tenants');
      grid.replaceChildren(...(tenants.tenants.length
        ? tenants.tenants.map(tenantCard) : [el('p', { class: 'empty' }, 'No verdict published yet.')]));
      fillOptions(selects.type, feed.facets.types, 'all types');
      fillOptions(selects.level, feed.facets.levels, 'all levels');
      fillOptions(selects.tenant, feed.facets.tenants, 'all tenants');
      const body = document.getElementById('feed');
      body.replaceChildren(...(feed.anomalies.length ? feed.anomalies.map(feedRow)
        : [el('tr', { class: 'empty-row' }, el('td', { colspan: 6 }, 'No anomaly matches.'))]));
      feed.anomalies.forEach(a => known.add(a.id));
      firstLoad = false;
      document.getElementById('feed-count').textContent =
        `showing ${feed.anomalies.length} of ${feed.total} matching · ${feed.received} received`;
      setStatus(true, 'live · updated ' + new Date().toLocaleTimeString());
    } catch (e) {
      setStatus(false, e.status === 401 ? 'token required: open this page with ?token=…' : 'offline: ' + e.message);
    }
  }

  refresh();
  setInterval(refresh, REFRESH_MS);
})();

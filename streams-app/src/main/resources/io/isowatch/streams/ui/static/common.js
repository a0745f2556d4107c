'use strict';
// Shared helpers of the IsoWatch pages. All text goes through textContent: nothing from the data is
// ever parsed as HTML.

const IsoWatch = (() => {
  const SVG_NS = 'http://www.w3.org/2000/svg';

  /** An element with attributes and children (strings become text nodes). */
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null) continue;
      if (k === 'class') e.className = v; else e.setAttribute(k, v);
    }
    for (const c of children) {
      if (c === undefined || c === null) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  function svgEl(tag, attrs, text) {
    const e = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  /** GET a JSON document; the session cookie rides along (same origin). */
  async function getJson(path) {
    const r = await fetch(path, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
    if (!r.ok) {
      const err = new Error(path + ': HTTP ' + r.status);
      err.status = r.status;
      throw err;
    }
    return r.json();
  }

  function time(micros) {
    if (micros === null || micros === undefined) return '—';
    const d = new Date(micros / 1000);
    return d.toISOString().replace('T', ' ').replace('Z', ' UTC');
  }

  function shortTime(micros) {
    const d = new Date(micros / 1000);
    return d.toISOString().substring(11, 19);
  }

  function seconds(micros) {
    if (micros === null || micros === undefined) return '—';
    const s = micros / 1e6;
    if (s < 1) return Math.round(s * 1000) + ' ms';
    if (s < 120) return s.toFixed(s < 10 ? 2 : 1) + ' s';
    return (s / 60).toFixed(1) + ' min';
  }

  function compact(n) {
    if (n >= 1e6) return (n / 1e6).toFixed(1) + 'M';
    if (n >= 1e4) return (n / 1e3).toFixed(0) + 'k';
    if (n >= 1e3) return (n / 1e3).toFixed(1) + 'k';
    return Number.isInteger(n) ? String(n) : n.toFixed(n < 10 ? 2 : 1);
  }

  function setStatus(ok, text) {
    const s = document.getElementById('status');
    s.textContent = text;
    s.className = 'status ' + (ok ? 'live' : 'stale');
  }

  /**
   * A small time-series chart into an <svg> element: points {x, y} (x in µs), a line or dots,
   * min/max labels on the y axis and the time span on the x axis.
   */
  function chart(svg, points, opts) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const W = 400, H = 96, L = 44, R = 8, T = 8, B = 18;
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.append(svgEl('line', { class: 'axis', x1: L, y1: H - B, x2: W - R, y2: H - B }));
    svg.append(svgEl('line', { class: 'axis', x1: L, y1: T, x2: L, y2: H - B }));
    if (points.length === 0) {
      svg.append(svgEl('text', { x: (L + W) / 2, y: H / 2, 'text-anchor': 'middle' }, opts.empty));
      return;
    }
    const xs = points.map(p => p.x), ys = points.map(p => p.y);
    let x0 = Math.min(...xs), x1 = Math.max(...xs);
    if (x1 === x0) { x0 -= 1e6; x1 += 1e6; }
    const y1 = Math.max(...ys) * 1.1 || 1;
    const px = x => L + (x - x0) / (x1 - x0) * (W - L - R);
    const py = y => H - B - y / y1 * (H - B - T);
    svg.append(svgEl('text', { x: L - 4, y: T + 8, 'text-anchor': 'end' }, compact(y1 / 1.1) + opts.unit));
    svg.append(svgEl('text', { x: L - 4, y: H - B, 'text-anchor': 'end' }, '0'));
    svg.append(svgEl('text', { x: L, y: H - 4 }, shortTime(x0)));
    svg.append(svgEl('text', { x: W - R, y: H - 4, 'text-anchor': 'end' }, shortTime(x1)));
    if (opts.dots) {
      for (const p of points) {
        const c = svgEl('circle', { cx: px(p.x), cy: py(p.y), r: 3.5, fill: opts.color, 'fill-opacity': .8 });
        c.append(svgEl('title', {}, p.label));
        svg.append(c);
      }
    } else {
      const d = points.map((p, i) => (i ? 'L' : 'M') + px(p.x).toFixed(1) + ',' + py(p.y).toFixed(1)).join(' ');
      const area = d + ` L${px(points[points.length - 1].x).toFixed(1)},${H - B} L${px(points[0].x).toFixed(1)},${H - B} Z`;
      svg.append(svgEl('path', { d: area, fill: opts.color, 'fill-opacity': .12, stroke: 'none' }));
      svg.append(svgEl('path', { d, fill: 'none', stroke: opts.color, 'stroke-width': 1.8 }));
    }
  }

  return { el, svgEl, getJson, time, seconds, compact, setStatus, chart };
})();

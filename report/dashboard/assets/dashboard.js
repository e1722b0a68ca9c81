// gojm's dashboard: sortable and filterable tables, and the charts of
// JMeter's dashboard drawn with uPlot from the figures in #gojm-data.
// Everything the page needs is in the page: it runs from the file system.
(function () {
  'use strict';
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));

  // ---- Tables ----

  // A cell's value for sorting: a number where the cell holds one
  // ("1,234", "12.50%"), else its text; "-" (no value) is null.
  function cellValue(td) {
    const t = td ? td.textContent.trim() : '';
    if (t === '' || t === '-') return null;
    if (/^-?[\d,]*\.?\d+%?$/.test(t)) return parseFloat(t.replace(/[,%]/g, ''));
    return t.toLowerCase();
  }

  function compare(x, y, sign) {
    if (x === null || y === null) return x === y ? 0 : (x === null ? 1 : -1); // no value last
    if (typeof x === 'number' && typeof y === 'number') return sign * (x - y);
    if (typeof x === 'number') return -1;
    if (typeof y === 'number') return 1;
    return sign * x.localeCompare(y);
  }

  // Clicking a column's head (or Enter on it) sorts the rows by it,
  // ascending then descending; the Total row stays first.
  function sortable(table) {
    for (const th of $$('th[data-col]', table)) {
      th.tabIndex = 0;
      th.title = 'Sort by this column';
      const go = () => sortBy(table, th);
      th.addEventListener('click', go);
      th.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); go(); }
      });
    }
  }

  function sortBy(table, th) {
    const col = Number(th.dataset.col);
    const dir = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
    for (const h of $$('th[data-col]', table)) h.removeAttribute('aria-sort');
    th.setAttribute('aria-sort', dir);
    const body = table.tBodies[0];
    const rows = Array.from(body.rows);
    const sign = dir === 'ascending' ? 1 : -1;
    const rest = rows.filter((r) => !r.classList.contains('total'));
    rest.sort((a, b) => compare(cellValue(a.cells[col]), cellValue(b.cells[col]), sign));
    body.append(...rows.filter((r) => r.classList.contains('total')), ...rest);
  }

  // A filter box shows the rows whose first cell (the label, or the error)
  // holds its text, ignoring case; the Total row always shows.
  function filterable(input) {
    const table = document.getElementById(input.dataset.table);
    const status = document.getElementById(input.dataset.table + '-shown');
    const apply = () => {
      const q = input.value.trim().toLowerCase();
      let shown = 0, all = 0;
      for (const r of table.tBodies[0].rows) {
        if (r.classList.contains('total')) continue;
        all++;
        const hit = q === '' || r.cells[0].textContent.toLowerCase().includes(q);
        r.hidden = !hit;
        if (hit) shown++;
      }
      if (status) status.textContent = q === '' ? '' : shown + ' of ' + all + ' rows';
    };
    input.addEventListener('input', apply);
    apply();
  }

  $$('table.sortable').forEach(sortable);
  $$('input.filter').forEach(filterable);

  // ---- Charts ----

  const dataEl = document.getElementById('gojm-data');
  if (!dataEl || typeof uPlot === 'undefined') return;
  const D = JSON.parse(dataEl.textContent);
  const charts = {};
  window.gojmCharts = charts; // for the page's tests, and for a curious reader's console

  const palette = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2',
    '#7f7f7f', '#bcbd22', '#17becf', '#393b79', '#ad494a', '#637939', '#7b4173', '#3182bd', '#e6550d'];
  const colour = (i) => palette[i % palette.length];
  const okColour = '#2f9e44', koColour = '#e03131';

  const nf = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
  const fmt = (v, unit) => (v === null || v === undefined ? '-' : nf.format(v) + (unit || ''));

  // The page's time zone, whatever the browser's: uPlot shows a date's
  // local fields, so each date is moved by the difference.
  const tzDate = (ts) => {
    const d = new Date(ts * 1000);
    return new Date(d.getTime() + (D.offset + d.getTimezoneOffset() * 60) * 1000);
  };
  const fmtClock = (ts) => {
    const d = tzDate(ts), p = (n) => String(n).padStart(2, '0');
    return d.getFullYear() + '-' + p(d.getMonth() + 1) + '-' + p(d.getDate()) + ' ' +
      p(d.getHours()) + ':' + p(d.getMinutes()) + ':' + p(d.getSeconds()) +
      (D.width % 1000 ? '.' + String(d.getMilliseconds()).padStart(3, '0') : '');
  };
  const widthText = (ms) => ms < 1000 ? ms + ' ms' : ms < 60000 ? ms / 1000 + ' s' : ms < 3600000 ? ms / 60000 + ' min' : ms / 3600000 + ' h';

  // A tooltip beside the cursor with the values of the shown series.
  function tooltip(fmtX) {
    let tip;
    return {
      hooks: {
        init: (u) => {
          tip = document.createElement('div');
          tip.className = 'tip';
          tip.hidden = true;
          u.over.appendChild(tip);
          u.over.addEventListener('mouseleave', () => { tip.hidden = true; });
        },
        setCursor: (u) => {
          const { left, top, idx } = u.cursor;
          if (idx === null || idx === undefined || left < 0) { tip.hidden = true; return; }
          tip.replaceChildren();
          const head = document.createElement('b');
          head.textContent = fmtX(u.data[0][idx]);
          tip.appendChild(head);
          let rows = 0;
          u.series.forEach((s, i) => {
            if (i === 0 || !s.show) return;
            const v = u.data[i][idx];
            if (v === null || v === undefined) return;
            const line = document.createElement('div');
            const sw = document.createElement('i');
            sw.style.background = s.gojmColour;
            line.append(sw, s.label + ': ' + s.gojmFmt(v));
            tip.appendChild(line);
            rows++;
          });
          tip.hidden = rows === 0;
          const w = u.over.clientWidth;
          tip.style.left = (left > w / 2 ? left - tip.offsetWidth - 12 : left + 12) + 'px';
          tip.style.top = Math.max(0, top - 10) + 'px';
        },
      },
    };
  }

  // The charts, in JMeter's dashboard's order. kind: 'time' (wall-clock x
  // axis, zoom synchronised between the charts), 'xy' (numeric x), 'bars'
  // (a category each), 'points' (no lines). Times can be shown on a log
  // scale; where one series is far slower than another, they start so.
  const times = D.times || [];
  const labelsOf = (pick) => D.labels.map((l, i) => ({ label: l.name, values: pick(l), colour: colour(i) }));
  const ok = (name, values) => ({ label: name, values, colour: okColour });
  const ko = (name, values) => ({ label: name, values, colour: koColour });
  const tps = [];
  D.labels.forEach((l, i) => {
    tps.push({ label: l.name + '-success', values: l.ok, colour: colour(i) });
    tps.push({ label: l.name + '-failure', values: l.ko, colour: colour(i), dash: [6, 4] });
  });
  const pk = D.total.pctOk || {};
  const pn = D.pct.map((p) => 'p' + p);
  const defs = [
    { id: 'response-times-over-time', section: 'over-time', title: 'Response Times Over Time', kind: 'time', unit: ' ms', y: 'Response time (ms)', log: true,
      note: 'Mean response time of each label’s samples in the interval.', series: labelsOf((l) => l.mean) },
    { id: 'response-time-percentiles-over-time', section: 'over-time', title: 'Response Time Percentiles Over Time (successful responses)', kind: 'time', unit: ' ms', y: 'Response time (ms)', log: true,
      note: 'Over the successful samples of each interval, with the statistics table’s percentile rule.',
      series: [['Min', pk.min], ['Max', pk.max], ['Median', pk.median], [pn[0], pk[pn[0]]], [pn[1], pk[pn[1]]], [pn[2], pk[pn[2]]]]
        .map(([n, v], i) => ({ label: n, values: v || [], colour: colour(i) })) },
    { id: 'active-threads-over-time', section: 'over-time', title: 'Active Threads Over Time', kind: 'time', unit: '', y: 'Active threads', integer: true,
      note: 'Mean number of active threads of each thread group.', series: D.groups.map((g, i) => ({ label: g.name, values: g.values, colour: colour(i) })) },
    { id: 'bytes-throughput-over-time', section: 'over-time', title: 'Bytes Throughput Over Time', kind: 'time', unit: ' B/s', y: 'Bytes per second',
      series: [{ label: 'Bytes received per second', values: D.total.received, colour: colour(0) }, { label: 'Bytes sent per second', values: D.total.sent, colour: colour(1) }] },
    { id: 'latencies-over-time', section: 'over-time', title: 'Latencies Over Time', kind: 'time', unit: ' ms', y: 'Latency (ms)', log: true,
      note: 'Mean time to the first byte of the response.', series: labelsOf((l) => l.latency) },
    { id: 'connect-time-over-time', section: 'over-time', title: 'Connect Time Over Time', kind: 'time', unit: ' ms', y: 'Connect time (ms)', log: true,
      note: 'Mean time to open a connection (0 on a reused one).', series: labelsOf((l) => l.connect) },
    { id: 'hits-per-second', section: 'throughput', title: 'Hits Per Second', kind: 'time', unit: '/s', y: 'Hits per second',
      note: 'The samples the Total row counts (sub-results as samples of their own where the results file holds them), per second of the interval the run covers.', series: [{ label: 'Hits', values: D.total.hits, colour: colour(0) }] },
    { id: 'codes-per-second', section: 'throughput', title: 'Codes Per Second', kind: 'time', unit: '/s', y: 'Responses per second',
      series: D.codes.map((c, i) => ({ label: c.name || '(none)', values: c.values, colour: colour(i) })) },
    { id: 'transactions-per-second', section: 'throughput', title: 'Transactions Per Second', kind: 'time', unit: '/s', y: 'Transactions per second', series: tps },
    { id: 'total-transactions-per-second', section: 'throughput', title: 'Total Transactions Per Second', kind: 'time', unit: '/s', y: 'Transactions per second',
      note: 'The samples the Total row counts, by outcome, per second of the interval the run covers.', series: [ok('Transaction-success', D.total.ok), ko('Transaction-failure', D.total.ko)] },
    { id: 'response-time-vs-request', section: 'throughput', title: 'Response Time Vs Request', kind: 'points', x: D.rtVsRequest.x, xLabel: 'Global number of requests per second', unit: ' ms', y: 'Median response time (ms)', log: true,
      series: [ok('Success', D.rtVsRequest.ok), ko('Failure', D.rtVsRequest.ko)] },
    { id: 'latency-vs-request', section: 'throughput', title: 'Latency Vs Request', kind: 'points', x: D.latVsRequest.x, xLabel: 'Global number of requests per second', unit: ' ms', y: 'Median latency (ms)', log: true,
      series: [ok('Success', D.latVsRequest.ok), ko('Failure', D.latVsRequest.ko)] },
    { id: 'response-time-percentiles', section: 'response-times', title: 'Response Time Percentiles', kind: 'xy', x: D.percentiles.x, xLabel: 'Percentile', xUnit: '%', unit: ' ms', y: 'Response time (ms)', log: true,
      note: 'Each label’s percentiles, as in the statistics table.', series: D.percentiles.labels.map((l, i) => ({ label: l.name, values: l.values, colour: colour(D.labels.findIndex((x) => x.name === l.name)) })) },
    { id: 'response-time-overview', section: 'response-times', title: 'Response Time Overview', kind: 'bars', unit: '', y: 'Samples', integer: true,
      categories: ['<= ' + D.apdex[0] + ' ms', '> ' + D.apdex[0] + ' ms and <= ' + D.apdex[1] + ' ms', '> ' + D.apdex[1] + ' ms', 'Errors'],
      series: [['Requests having response time <= ' + D.apdex[0] + ' ms', '#2f9e44'], ['Requests having response time > ' + D.apdex[0] + ' ms and <= ' + D.apdex[1] + ' ms', '#f59f00'],
        ['Requests having response time > ' + D.apdex[1] + ' ms', '#e8590c'], ['Requests in error', koColour]]
        .map(([n, c], i) => ({ label: n, colour: c, values: D.overview.map((v, j) => (j === i ? v : null)) })) },
    { id: 'time-vs-threads', section: 'response-times', title: 'Time Vs Threads', kind: 'xy', x: D.timeVsThreads.x, xLabel: 'Active threads', unit: ' ms', y: 'Mean response time (ms)', log: true,
      note: D.timeVsThreads.step > 1 ? 'Active threads in steps of ' + D.timeVsThreads.step + '.' : '',
      series: D.timeVsThreads.labels.map((l) => ({ label: l.name, values: l.values, colour: colour(D.labels.findIndex((x) => x.name === l.name)) })) },
    { id: 'response-time-distribution', section: 'response-times', title: 'Response Time Distribution', kind: 'steps', x: D.distribution.x, xLabel: 'Response time (ms)', unit: '', y: 'Samples', integer: true,
      note: 'Samples per ' + D.distribution.step + ' ms of response time.',
      series: D.distribution.labels.map((l) => ({ label: l.name, values: l.values, colour: colour(D.labels.findIndex((x) => x.name === l.name)) })) },
  ];

  // far: whether one series' typical value is at least 20 times another's.
  function far(series) {
    const typical = series.map((s) => {
      const v = (s.values || []).filter((x) => x !== null && x > 0).sort((a, b) => a - b);
      return v.length ? v[Math.floor(v.length / 2)] : null;
    }).filter((x) => x !== null);
    return typical.length > 1 && Math.max(...typical) >= 20 * Math.min(...typical);
  }

  function hasData(def) {
    return def.series.some((s) => (s.values || []).some((v) => v !== null && v !== undefined && (def.kind !== 'bars' || v > 0)));
  }

  function build(def, box) {
    const kind = def.kind;
    const x = kind === 'time' ? times : kind === 'bars' ? def.categories.map((_, i) => i) : def.x;
    const fmtX = kind === 'time' ? fmtClock : kind === 'bars' ? (i) => def.categories[i] : (v) => fmt(v, def.xUnit || '');
    const useLog = def.log && def.logOn;
    const shown = def.shown || {};
    const series = [{ label: kind === 'time' ? 'Time' : def.xLabel || '', value: (u, v) => (v === null ? '-' : fmtX(v)) }];
    const single = x.length <= 2;
    for (const s of def.series) {
      const one = {
        label: s.label,
        stroke: s.colour,
        width: 1.5,
        dash: s.dash,
        show: shown[s.label] !== false,
        spanGaps: kind === 'xy',
        value: (u, v) => fmt(v, def.unit),
        points: { show: single || kind === 'points' ? true : undefined, size: kind === 'points' ? 7 : 5, fill: s.colour },
      };
      one.gojmColour = s.colour;
      one.gojmFmt = (v) => fmt(v, def.unit);
      if (kind === 'points') one.paths = () => null;
      if (kind === 'bars') { one.paths = uPlot.paths.bars({ size: [0.6, 120] }); one.fill = s.colour; one.points = { show: false }; }
      if (kind === 'steps') { one.paths = uPlot.paths.stepped({ align: 1 }); one.fill = s.colour + '22'; }
      series.push(one);
    }
    const yAxis = {
      label: def.y + (useLog ? ' — log scale' : ''),
      size: 70,
      values: (u, vals) => vals.map((v) => fmt(v)),
    };
    if (def.integer) yAxis.incrs = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 1e7, 1e8];
    const xAxis = { label: kind === 'time' ? 'Time (' + tzName + ')' : def.xLabel || '' };
    if (kind === 'bars') { xAxis.values = (u, vals) => vals.map((v) => def.categories[v] || ''); xAxis.splits = () => x; }
    const yScale = useLog ? { distr: 3, log: 10 } : {
      // Headroom above the highest point, and 0 at the bottom.
      range: (u, lo, hi) => [0, hi > 0 ? hi * 1.08 : 1],
    };
    const xScale = kind === 'time' ? { time: true } : kind === 'bars' ? { time: false, range: [-0.5, x.length - 0.5] } : { time: false };
    if (single && kind === 'time' && x.length) xScale.range = [x[0] - D.width / 1000, x[x.length - 1] + D.width / 1000];
    const opts = {
      width: Math.max(320, box.clientWidth),
      height: 330,
      tzDate,
      series,
      scales: { x: xScale, y: yScale },
      axes: [xAxis, yAxis],
      cursor: { drag: { x: kind !== 'bars', y: false }, sync: kind === 'time' ? { key: 'gojm-time' } : undefined },
      legend: { live: true },
      plugins: [tooltip(fmtX)],
    };
    const rows = def.series.map((s) => (useLog ? s.values.map((v) => (v !== null && v > 0 ? v : null)) : s.values));
    return new uPlot(opts, [x, ...rows], box);
  }

  const tzName = (() => {
    const m = Math.abs(D.offset) / 60, sign = D.offset < 0 ? '-' : '+';
    return 'UTC' + sign + String(Math.floor(m / 60)).padStart(2, '0') + ':' + String(m % 60).padStart(2, '0');
  })();

  // A chart is drawn when it comes near the screen, so that the page shows
  // at once however many charts and series it has.
  const pending = new Map();
  const draw = (box) => {
    const p = pending.get(box);
    if (!p) return;
    pending.delete(box);
    if (observer) observer.unobserve(box);
    box.style.minHeight = '';
    charts[p.def.id] = build(p.def, box);
  };
  const observer = 'IntersectionObserver' in window ? new IntersectionObserver((entries) => {
    for (const e of entries) if (e.isIntersecting) draw(e.target);
  }, { rootMargin: '600px 0px' }) : null;
  const later = (def, box) => {
    pending.set(box, { def });
    box.style.minHeight = '390px'; // the chart's room, legend included
  };
  // After the figures are laid out: those on or near the screen are drawn
  // at once, with the page (a screenshot or a print sees them), the others
  // when they come near.
  const drawNear = () => {
    for (const box of Array.from(pending.keys())) {
      const r = box.getBoundingClientRect();
      if (!observer || (r.bottom > -600 && r.top < window.innerHeight + 600)) draw(box);
      else observer.observe(box);
    }
  };
  // Draws every chart not drawn yet (before printing, and for the tests).
  window.gojmDrawAll = () => Array.from(pending.keys()).forEach(draw);
  window.addEventListener('beforeprint', window.gojmDrawAll);

  for (const def of defs) {
    const section = document.getElementById('charts-' + def.section);
    if (!section) continue;
    const fig = document.createElement('figure');
    fig.className = 'chart';
    fig.id = def.id;
    const cap = document.createElement('figcaption');
    cap.textContent = def.title;
    fig.appendChild(cap);
    if (!hasData(def)) {
      const p = document.createElement('p');
      p.className = 'note empty';
      p.textContent = 'No samples for this chart.';
      fig.appendChild(p);
      section.appendChild(fig);
      continue;
    }
    const tools = document.createElement('div');
    tools.className = 'tools';
    if (def.kind === 'time') {
      const t = document.createElement('span');
      t.textContent = 'Interval ' + widthText(D.width) + '. ';
      tools.appendChild(t);
    }
    if (def.kind !== 'bars') {
      const hint = document.createElement('span');
      hint.textContent = 'Drag to zoom, double-click to reset; click a legend entry to hide or show it.';
      tools.appendChild(hint);
    }
    const box = document.createElement('div');
    box.className = 'plot';
    if (def.log) {
      def.logOn = far(def.series);
      const lab = document.createElement('label');
      const cb = document.createElement('input');
      cb.type = 'checkbox';
      cb.className = 'log';
      cb.checked = def.logOn;
      lab.append(cb, ' log scale');
      cb.addEventListener('change', () => {
        def.logOn = cb.checked;
        const old = charts[def.id];
        if (!old) return; // not drawn yet
        def.shown = {};
        old.series.forEach((s, i) => { if (i > 0) def.shown[s.label] = s.show; });
        old.destroy();
        charts[def.id] = build(def, box);
      });
      tools.appendChild(lab);
    }
    fig.appendChild(tools);
    fig.appendChild(box);
    if (def.note) {
      const p = document.createElement('p');
      p.className = 'note';
      p.textContent = def.note;
      fig.appendChild(p);
    }
    section.appendChild(fig);
    later(def, box);
  }

  drawNear();

  let resizing = 0;
  window.addEventListener('resize', () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => {
      for (const [id, u] of Object.entries(charts)) {
        const box = document.querySelector('#' + id + ' .plot');
        if (box) u.setSize({ width: Math.max(320, box.clientWidth), height: 330 });
      }
    }, 150);
  });
})();

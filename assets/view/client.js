// The hookmd view page: a 3D structure (3Dmol.js), a frame slider, a sortable system table and plots
// (uPlot) of the data in window.HOOKMD_DATA (an exported report) or data.json (a served page): per-step
// scalars of the selected system, and the curves of data.plots (NEB profiles, phonon bands, g(r)). A live page
// also listens to events (Server-Sent Events) and appends the frames and scalars a running ViewHook sends.
// Test code reads window.hookmdView (plots, frame index, update count); nothing here writes to the server.
(function () {
  'use strict';

  const PLOTS = [
    { id: 'energy', title: 'Energy', columns: ['energy', 'totalEnergy'] },
    { id: 'temperature', title: 'Temperature', columns: ['temperature'] },
    { id: 'pressure', title: 'Pressure', columns: ['pressure'] },
    { id: 'fmax', title: 'fmax', columns: ['fmax'] },
    // hookmd run's MsdHook and VacfHook files, joined to the log's rows: against time when every row has one.
    { id: 'msd', title: 'MSD (Å²)', columns: ['msd'], time: true },
    { id: 'vacf', title: 'VACF (Å²/fs²)', columns: ['vacf'], time: true },
  ];
  const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf'];
  const TABLE = [
    { key: 'label', title: 'system' },
    { key: 'formula', title: 'formula' },
    { key: 'atoms', title: 'atoms' },
    { key: 'frames', title: 'frames' },
    { key: 'energy', title: 'energy' },
    { key: 'fmax', title: 'fmax' },
    { key: 'converged', title: 'converged' },
  ];

  const view = (window.hookmdView = { updates: 0, plots: {}, curves: new Set(), system: null, frameIndex: 0, rendered: false, ended: false, viewer: null });
  let data = null;
  // Systems by key, for applying live updates without a search per system.
  const byKey = new Map();
  let sort = { key: null, dir: 1 };
  let zoomPending = true;
  let timer = null;
  let renderQueued = false;

  const $ = (id) => document.getElementById(id);
  const el = (tag, text) => {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const fmt = (v) => (v === null || v === undefined ? '' : Math.abs(v) >= 1e5 || (v !== 0 && Math.abs(v) < 1e-3) ? v.toExponential(3) : String(Number(v.toPrecision(7))));
  const current = () => byKey.get(view.system) || null;

  function formula(symbols) {
    const counts = new Map();
    for (const s of symbols) counts.set(s, (counts.get(s) || 0) + 1);
    return [...counts].map(([s, n]) => (n === 1 ? s : s + n)).join('');
  }

  // ---- structure ----
  function drawCell(viewer, c) {
    const a = [c[0], c[1], c[2]], b = [c[3], c[4], c[5]], cc = [c[6], c[7], c[8]];
    const add = (p, q) => [p[0] + q[0], p[1] + q[1], p[2] + q[2]];
    const o = [0, 0, 0];
    const corners = [o, a, b, cc, add(a, b), add(a, cc), add(b, cc), add(add(a, b), cc)];
    const edges = [[0, 1], [0, 2], [0, 3], [1, 4], [1, 5], [2, 4], [2, 6], [3, 5], [3, 6], [4, 7], [5, 7], [6, 7]];
    const v = (p) => ({ x: p[0], y: p[1], z: p[2] });
    for (const [i, j] of edges) viewer.addCylinder({ start: v(corners[i]), end: v(corners[j]), radius: 0.05, color: '#555555', fromCap: 1, toCap: 1 });
  }

  // The 3D viewer, or null where the browser offers no WebGL (a remote desktop, a locked-down or headless
  // browser): the page then shows a note in its place, and the slider, the table and the plots still work.
  function createViewer() {
    const probe = document.createElement('canvas');
    let gl = null;
    try {
      gl = probe.getContext('webgl2') || probe.getContext('webgl');
    } catch (error) {
      gl = null;
    }
    let viewer = null;
    if (gl !== null && typeof $3Dmol !== 'undefined') {
      try {
        viewer = $3Dmol.createViewer($('viewer'), { backgroundColor: 'white', antialias: true }) || null;
      } catch (error) {
        viewer = null;
      }
    }
    if (viewer === null) {
      const note = el('p', 'The 3D view needs WebGL, which this browser does not offer; the frames, the table and the plots work without it.');
      note.id = 'no-webgl';
      $('viewer').replaceChildren(note);
    }
    return viewer;
  }

  function drawFrame() {
    const viewer = view.viewer;
    const system = current();
    const frames = system ? system.frames : [];
    const slider = $('frame');
    slider.max = String(Math.max(0, frames.length - 1));
    slider.value = String(view.frameIndex);
    slider.disabled = frames.length < 2;
    $('play').disabled = frames.length < 2;
    if (viewer !== null) {
      viewer.removeAllModels();
      viewer.removeAllShapes();
    }
    if (frames.length === 0) {
      $('frame-label').textContent = system ? 'no structure in the files for this system' : '';
      if (viewer !== null) viewer.render();
      return;
    }
    const frame = frames[view.frameIndex];
    $('frame-label').textContent = `frame ${view.frameIndex + 1} / ${frames.length} · step ${frame.step}`;
    if (viewer === null) return;
    const p = frame.positions;
    const atoms = system.symbols.map((elem, i) => ({ elem, x: p[3 * i], y: p[3 * i + 1], z: p[3 * i + 2] }));
    const model = viewer.addModel();
    model.addAtoms(atoms);
    model.setStyle({}, { sphere: { scale: 0.35, colorscheme: 'Jmol' } });
    if (frame.cell) drawCell(viewer, frame.cell);
    if (zoomPending) {
      viewer.zoomTo();
      zoomPending = false;
    }
    viewer.render();
  }

  function setFrame(index) {
    const system = current();
    const count = system ? system.frames.length : 0;
    view.frameIndex = Math.max(0, Math.min(count - 1, index | 0));
    drawFrame();
  }
  view.setFrame = setFrame;

  function togglePlay() {
    if (timer !== null) {
      clearInterval(timer);
      timer = null;
      $('play').textContent = '▶ play';
      return;
    }
    $('play').textContent = '❚❚ pause';
    timer = setInterval(() => {
      const system = current();
      if (!system || system.frames.length < 2) return;
      setFrame((view.frameIndex + 1) % system.frames.length);
    }, 150);
  }

  // ---- plots ----
  function positive(columns) {
    return columns.every((c) => c.every((v) => v === null || v > 0));
  }

  function makePlot(host, id, title, xName, xs, named) {
    const box = el('div');
    box.className = 'plot';
    box.dataset.plot = id;
    host.appendChild(box);
    const width = Math.max(320, Math.min(620, host.clientWidth - 8));
    const log = id === 'training' && positive(named.map(([, c]) => c));
    const options = {
      title, width, height: 200,
      scales: { x: { time: false }, y: log ? { distr: 3 } : {} },
      axes: [{ label: xName }, { size: 70 }],
      series: [{ label: xName }, ...named.map(([name], i) => ({ label: name, stroke: COLORS[i % COLORS.length], width: 1.5, spanGaps: true }))],
    };
    view.plots[id] = new uPlot(options, [xs, ...named.map(([, c]) => c)], box);
  }

  // A curve plot (data.plots): series with their own x values, on one x axis (uPlot.join fills the gaps with
  // nulls) unless they all share it (the branches of a band structure); ticks label x positions (q points).
  const sameX = (series) => series.every((s) => s.x.length === series[0].x.length && s.x.every((x, i) => x === series[0].x[i]));

  function makeCurvePlot(host, spec) {
    const box = el('div');
    box.className = 'plot';
    box.dataset.plot = spec.id;
    host.appendChild(box);
    const width = Math.max(320, Math.min(620, host.clientWidth - 8));
    const aligned = sameX(spec.series) ? [spec.series[0].x, ...spec.series.map((s) => s.y)] : uPlot.join(spec.series.map((s) => [s.x, s.y]));
    const ticks = spec.ticks || null;
    const xAxis = ticks
      ? { label: spec.xLabel, splits: () => ticks.map((t) => t.x), values: () => ticks.map((t) => t.label), grid: { show: true } }
      : { label: spec.xLabel };
    // Marks (an NEB path's saddle and barrier) are written beside their point each time the plot is drawn.
    const marks = spec.marks || [];
    const drawMarks = (u) => {
      const ctx = u.ctx;
      ctx.save();
      ctx.font = `${Math.round(12 * devicePixelRatio)}px system-ui, sans-serif`;
      ctx.fillStyle = '#222';
      ctx.textAlign = 'center';
      for (const mark of marks) ctx.fillText(mark.label, u.valToPos(mark.x, 'x', true), u.valToPos(mark.y, 'y', true) - 10 * devicePixelRatio);
      ctx.restore();
    };
    const options = {
      title: spec.title, width, height: 240,
      hooks: { draw: [drawMarks] },
      scales: { x: { time: false } },
      axes: [xAxis, { label: spec.yLabel, size: 70 }],
      series: [{ label: spec.xLabel }, ...spec.series.map((s, i) => ({
        // A null is a break (a jump in a band path); uPlot.join's fill-ins are undefined, which lines cross.
        label: s.label, stroke: COLORS[i % COLORS.length], width: s.points ? 0 : 1.5, spanGaps: false,
        points: s.points ? { show: true, size: 7, fill: COLORS[i % COLORS.length] } : { show: false },
      }))],
    };
    view.plots[spec.id] = new uPlot(options, aligned, box);
    view.curves.add(spec.id);
    for (const note of spec.notes || []) {
      const line = el('p', note);
      line.className = 'note';
      box.appendChild(line);
    }
  }

  function seriesOf(columns, names) {
    return names.filter((n) => columns[n] && columns[n].some((v) => v !== null)).map((n) => [n, columns[n]]);
  }

  function buildPlots() {
    for (const plot of Object.values(view.plots)) plot.destroy();
    view.plots = {};
    view.curves = new Set();
    const host = $('plots');
    host.replaceChildren();
    const system = current();
    if (system && system.scalars.step) {
      const time = system.scalars.time && system.scalars.time.every((v) => v !== null) ? 'time' : 'step';
      for (const spec of PLOTS) {
        const named = seriesOf(system.scalars, spec.columns);
        const x = spec.time ? time : 'step';
        if (named.length > 0) makePlot(host, spec.id, spec.title, x, system.scalars[x], named);
      }
    }
    for (const spec of data.plots || []) if (spec.system === null || spec.system === view.system) makeCurvePlot(host, spec);
    const t = data.training;
    if (t) {
      const x = t.epoch && new Set(t.epoch).size === t.epoch.length ? 'epoch' : 'step';
      const names = Object.keys(t).filter((n) => !['epoch', 'step', 'lr'].includes(n));
      const named = seriesOf(t, names);
      if (named.length > 0 && t[x]) makePlot(host, 'training', 'Training: loss and metrics', x, t[x], named);
    }
    if (host.childElementCount === 0) host.appendChild(el('p', 'nothing to plot for this selection'));
  }

  function refreshPlots() {
    const system = current();
    for (const [id, plot] of Object.entries(view.plots)) {
      if (view.curves.has(id)) continue;
      const columns = id === 'training' ? data.training : system && system.scalars;
      if (!columns) continue;
      const x = plot.series[0].label;
      plot.setData([columns[x], ...plot.series.slice(1).map((s) => columns[s.label])]);
    }
  }

  // ---- systems table ----
  function rowValue(system, key) {
    if (key === 'formula') return formula(system.symbols);
    if (key === 'atoms') return system.symbols.length;
    if (key === 'frames') return system.frames.length;
    return system[key];
  }

  function xyzOf(system) {
    const n = system.symbols.length;
    return system.frames.map((f) => {
      const lattice = f.cell ? `Lattice="${f.cell.join(' ')}" ` : '';
      const pbc = f.cell ? 'T T T' : 'F F F';
      const lines = system.symbols.map((s, i) => `${s} ${f.positions[3 * i]} ${f.positions[3 * i + 1]} ${f.positions[3 * i + 2]}`);
      return `${n}\n${lattice}Properties=species:S:1:pos:R:3 step=${f.step} pbc="${pbc}"\n${lines.join('\n')}\n`;
    }).join('');
  }

  function buildTable() {
    const table = $('systems');
    table.replaceChildren();
    const head = el('tr');
    for (const column of TABLE) {
      const th = el('th', column.title + (sort.key === column.key ? (sort.dir > 0 ? ' ▲' : ' ▼') : ''));
      th.dataset.sort = column.key;
      th.addEventListener('click', () => {
        sort = { key: column.key, dir: sort.key === column.key ? -sort.dir : 1 };
        buildTable();
      });
      head.appendChild(th);
    }
    head.appendChild(el('th', 'download'));
    table.appendChild(head);
    const rows = [...data.systems];
    if (sort.key !== null) {
      rows.sort((p, q) => {
        const a = rowValue(p, sort.key), b = rowValue(q, sort.key);
        if (a === null || a === undefined) return 1;
        if (b === null || b === undefined) return -1;
        return (a < b ? -1 : a > b ? 1 : 0) * sort.dir;
      });
    }
    for (const system of rows) {
      const tr = el('tr');
      tr.dataset.key = system.key;
      if (system.key === view.system) tr.className = 'selected';
      for (const column of TABLE) {
        const value = rowValue(system, column.key);
        tr.appendChild(el('td', typeof value === 'number' ? fmt(value) : value === null || value === undefined ? '' : String(value)));
      }
      const links = el('td');
      const file = system.file === null ? null : data.files[system.file];
      if (file && file.href) {
        const a = el('a', file.name);
        a.href = file.href;
        a.download = file.name;
        links.appendChild(a);
        links.appendChild(document.createTextNode(' '));
      }
      if (system.frames.length > 0) {
        const a = el('a', 'frames.xyz');
        a.href = '#';
        a.addEventListener('click', (event) => {
          event.preventDefault();
          event.stopPropagation();
          const url = URL.createObjectURL(new Blob([xyzOf(system)], { type: 'chemical/x-xyz' }));
          const link = el('a');
          link.href = url;
          link.download = `${system.label.replace(/[^\w.-]+/g, '_')}.xyz`;
          document.body.appendChild(link);
          link.click();
          link.remove();
          setTimeout(() => URL.revokeObjectURL(url), 1000);
        });
        links.appendChild(a);
      }
      tr.appendChild(links);
      tr.addEventListener('click', () => select(system.key));
      table.appendChild(tr);
    }
  }

  function select(key) {
    view.system = key;
    const system = current();
    // A live page follows the newest frame; a finished run opens at its first.
    view.frameIndex = system && data.live ? Math.max(0, system.frames.length - 1) : 0;
    zoomPending = true;
    buildTable();
    drawFrame();
    buildPlots();
  }
  view.select = select;

  // ---- live updates ----
  function appendRow(columns, row) {
    const length = columns.step ? columns.step.length : columns.epoch ? columns.epoch.length : 0;
    for (const [name, value] of Object.entries(row)) {
      if (!columns[name]) columns[name] = new Array(length).fill(null);
      columns[name].push(value);
    }
    for (const column of Object.values(columns)) if (column.length === length) column.push(null);
  }

  function apply(message) {
    if (message.kind === 'end') {
      view.ended = true;
      $('status').textContent = 'run finished';
      return;
    }
    if (message.kind === 'training') {
      data.training = data.training || {};
      appendRow(data.training, message.row);
      return;
    }
    for (const update of message.systems) {
      let system = byKey.get(update.key);
      if (!system) {
        system = { key: update.key, label: update.label, symbols: update.symbols, frames: [], scalars: {}, energy: null, fmax: null, converged: null, file: null };
        data.systems.push(system);
        byKey.set(system.key, system);
      }
      if (update.frame) {
        system.frames.push(update.frame);
        if (data.maxFrames !== null && system.frames.length > data.maxFrames) system.frames.shift();
      }
      appendRow(system.scalars, update.row);
      system.energy = update.row.energy;
      system.fmax = update.row.fmax;
      system.converged = update.converged;
    }
    $('status').textContent = `live · step ${message.step}`;
  }

  function render() {
    renderQueued = false;
    if (view.system === null && data.systems.length > 0) {
      select(data.systems[0].key);
      return;
    }
    const system = current();
    const following = system && view.frameIndex >= system.frames.length - 2;
    buildTable();
    if (following) view.frameIndex = Math.max(0, system.frames.length - 1);
    drawFrame();
    const plotted = Object.keys(view.plots).length;
    if (plotted === 0 || (data.training && !view.plots.training)) buildPlots();
    else refreshPlots();
  }

  // Subscribes before the snapshot is fetched, and applies only events newer than it, so no update is lost
  // or applied twice.
  function listen(pending) {
    const source = new EventSource('events');
    source.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (data === null) {
        pending.push(message);
        return;
      }
      if (message.seq <= data.seq) return;
      data.seq = message.seq;
      apply(message);
      if (message.kind !== 'end') view.updates += 1;
      if (view.ended) {
        // The last picture is drawn at once: the run is over, nothing more will come to batch with it.
        source.close();
        render();
      } else if (!renderQueued) {
        renderQueued = true;
        setTimeout(render, 50);
      }
    };
    source.onopen = () => {
      view.connected = true;
    };
  }

  async function start() {
    const pending = [];
    // A served page is live when the server has an event stream (a ViewHook); a report never is.
    if (!window.HOOKMD_DATA) listen(pending);
    data = window.HOOKMD_DATA || (await (await fetch('data.json')).json());
    for (const system of data.systems) byKey.set(system.key, system);
    document.title = `hookmd view · ${data.title}`;
    $('title').textContent = data.title;
    $('status').textContent = data.live ? 'live' : '';
    if (data.systems.length === 0 && !data.live) $('structure').hidden = true;
    view.viewer = createViewer();
    $('frame').addEventListener('input', (event) => setFrame(Number(event.target.value)));
    $('play').addEventListener('click', togglePlay);
    if (data.systems.length > 0) select(data.systems[0].key);
    else {
      buildTable();
      buildPlots();
    }
    for (const message of pending) {
      if (message.seq <= data.seq) continue;
      data.seq = message.seq;
      apply(message);
      if (message.kind !== 'end') view.updates += 1;
    }
    if (pending.length > 0) render();
    view.rendered = true;
  }

  start().catch((error) => {
    const message = error instanceof Error ? error.message : String(error);
    $('status').textContent = `error: ${message}`;
    view.error = message;
  });
})();

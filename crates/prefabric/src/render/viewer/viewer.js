// prefabric's map viewer. Reads the map's JSON (docs/json-schema.md's schema, with its
// trace) from the page, draws it on a canvas and explains every cell. No
// dependencies, no network. Written for the file `prefabric generate --format
// html` makes; `window.prefabricViewer` is what the browser test drives.
(function () {
  'use strict';

  const map = JSON.parse(document.getElementById('prefabric-map').textContent);
  const config = JSON.parse(document.getElementById('prefabric-config').textContent);
  const W = map.width;
  const H = map.height;
  const STAGES = ['features', 'layout', 'encounters', 'furnishing', 'objects'];
  const PREFAB_STAGE = { feature: 0, layout: 1, encounter: 2 };
  const REGION_COLOURS = {
    room: '#4c9be8', hall: '#2f6fd0', corridor: '#b07de0', junction: '#e07db0',
    prefab: '#e8c14c', cave: '#5fbf6a', passage: '#9fd36a',
  };
  const CATEGORY_COLOURS = {
    fluff: ['#60d060', 'fluff encounter'], reward: ['#ffd700', 'reward encounter'],
    'risk-reward': ['#ff8c00', 'risk-reward encounter'], danger: ['#ff3030', 'danger encounter'],
  };
  const STAGE_COLOURS = { feature: '#40e0ff', layout: '#80ff80', encounter: '#ff80c0' };
  const OBJECT_COLOURS = {
    machine: '#b0c4de', entity: '#ff4040', item: '#ffd840', prop: '#40d0d0', trap: '#ff40ff', debris: '#a08060',
  };
  const MARK_COLOUR = '#a6ff3c';
  const FOUND_COLOUR = '#ffff00';
  const DOOR_COLOUR = 'rgba(255, 170, 40, 0.9)';
  const STATE_KEY = 'prefabric-viewer:' + location.pathname;

  // --- cell lookups -------------------------------------------------------
  const terrainAt = new Uint16Array(W * H);
  const keyIndex = new Map(map.terrain.map((t, i) => [t.key, i]));
  map.terrain_rows.forEach((row, y) => {
    let x = 0;
    for (const key of row) {
      if (x < W) terrainAt[y * W + x] = keyIndex.get(key) || 0;
      x += 1;
    }
  });
  const regionAt = new Int32Array(W * H).fill(-1);
  map.region_runs.forEach((runs, y) => {
    for (const [x, length, id] of runs) regionAt.fill(id, y * W + x, y * W + x + length);
  });
  const regionById = new Map(map.regions.map((r) => [r.id, r]));
  const objectsAt = new Map();
  map.objects.forEach((o, i) => {
    for (const [x, y] of o.cells) {
      const at = y * W + x;
      if (!objectsAt.has(at)) objectsAt.set(at, []);
      objectsAt.get(at).push(i);
    }
  });
  const doorsAt = new Map();
  for (const r of map.regions) for (const [x, y] of r.doors) doorsAt.set(y * W + x, r.id);
  const linksAt = new Map(map.links.map((l) => [l.y * W + l.x, l]));
  // The names of the cell marks on each marked cell (absent from the JSON
  // when the map has none); the objects stage places them.
  const marksAt = new Map();
  for (const mark of map.marks || []) {
    for (const [x, y] of mark.cells) {
      const at = y * W + x;
      if (!marksAt.has(at)) marksAt.set(at, []);
      marksAt.get(at).push(mark.name);
    }
  }
  const MARKS_STAGE = 4;

  // The stage that added each object: furnishing, the objects stage (a
  // reference character's definition), or its prefab's own.
  function objectStage(o) {
    if (o.source === 'furnishing') return 3;
    if (o.definition) return 4;
    if (o.prefab !== null && map.prefabs[o.prefab]) return PREFAB_STAGE[map.prefabs[o.prefab].stage];
    return 4;
  }
  const trace = map.trace || [];
  const stageOfEvent = (e) => {
    const i = STAGES.indexOf(e.stage);
    return i < 0 ? null : i;
  };

  // --- the terrain image, one pixel per cell ------------------------------
  const terrainImage = document.createElement('canvas');
  terrainImage.width = W;
  terrainImage.height = H;
  (function paintTerrain() {
    const g = terrainImage.getContext('2d');
    const image = g.createImageData(W, H);
    const rgb = map.terrain.map((t) => [1, 3, 5].map((i) => parseInt(t.colour.slice(i, i + 2), 16)));
    for (let i = 0; i < W * H; i += 1) {
      const c = rgb[terrainAt[i]] || [0, 0, 0];
      image.data.set([c[0], c[1], c[2], 255], i * 4);
    }
    g.putImageData(image, 0, 0);
  })();

  // --- state ----------------------------------------------------------------
  // Layout prefabs (a maze has hundreds) are outlined only when asked for.
  const layers = {
    terrain: true, glyphs: false, regions: false, prefabs: true, layoutPrefabs: false, objects: true, links: true,
    marks: true, spawn: false, places: true,
  };
  let prefabColouring = 'category';
  let stage = STAGES.length; // all stages
  let view = { scale: 4, x: 0, y: 0 };
  let hovered = null;
  let pinned = null;
  let selectedEvent = null;
  // What the search box finds: indices into map.prefabs and map.objects.
  let found = { query: '', prefabs: [], objects: [] };
  let onlyFound = false;

  const canvas = document.getElementById('map');
  const ctx = canvas.getContext('2d');

  // --- drawing ----------------------------------------------------------------
  function resize() {
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.max(1, Math.round(canvas.clientWidth * ratio));
    canvas.height = Math.max(1, Math.round(canvas.clientHeight * ratio));
    draw();
  }

  function fit() {
    const s = Math.min(canvas.clientWidth / W, canvas.clientHeight / H);
    view.scale = Math.max(0.25, s * 0.98);
    view.x = (canvas.clientWidth - W * view.scale) / 2;
    view.y = (canvas.clientHeight - H * view.scale) / 2;
  }

  function zoomAt(factor, px, py) {
    const scale = Math.min(64, Math.max(0.25, view.scale * factor));
    view.x = px - ((px - view.x) * scale) / view.scale;
    view.y = py - ((py - view.y) * scale) / view.scale;
    view.scale = scale;
    draw();
  }

  function rectPath(x, y, w, h, inset) {
    const s = view.scale;
    ctx.strokeRect(view.x + x * s + inset, view.y + y * s + inset, w * s - 2 * inset, h * s - 2 * inset);
  }

  function fillCell(x, y, colour, shrink) {
    const s = view.scale;
    const d = s * shrink;
    ctx.fillStyle = colour;
    ctx.fillRect(view.x + x * s + d, view.y + y * s + d, s - 2 * d, s - 2 * d);
  }

  function prefabColour(p) {
    if (prefabColouring === 'stage') return STAGE_COLOURS[p.stage] || '#fff';
    if (p.category && CATEGORY_COLOURS[p.category]) return CATEGORY_COLOURS[p.category][0];
    return p.stage === 'feature' ? '#ffffff' : '#80a0ff';
  }

  function drawTerrainPart(x, y, w, h) {
    const s = view.scale;
    ctx.drawImage(terrainImage, x, y, w, h, view.x + x * s, view.y + y * s, w * s, h * s);
  }

  function drawGlyphs() {
    const s = view.scale;
    const x0 = Math.max(0, Math.floor(-view.x / s));
    const y0 = Math.max(0, Math.floor(-view.y / s));
    const x1 = Math.min(W, Math.ceil((canvas.clientWidth - view.x) / s));
    const y1 = Math.min(H, Math.ceil((canvas.clientHeight - view.y) / s));
    ctx.font = Math.floor(s * 0.9) + 'px ui-monospace, monospace';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (let y = y0; y < y1; y += 1) {
      const row = Array.from(map.rows[y] || '');
      for (let x = x0; x < x1; x += 1) {
        const t = map.terrain[terrainAt[y * W + x]];
        ctx.fillStyle = t ? t.colour : '#888';
        const glyph = row[x] || ' ';
        if (glyph !== ' ') ctx.fillText(glyph, view.x + (x + 0.5) * s, view.y + (y + 0.5) * s);
      }
    }
  }

  function draw() {
    const ratio = canvas.width / Math.max(1, canvas.clientWidth);
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.fillStyle = '#0b0b0b';
    ctx.fillRect(0, 0, canvas.clientWidth, canvas.clientHeight);
    ctx.imageSmoothingEnabled = false;
    const s = view.scale;
    const glyphs = layers.glyphs && s >= 6;
    if (layers.terrain) {
      if (glyphs) drawGlyphs();
      else drawTerrainPart(0, 0, W, H);
      drawTimelineShade(glyphs);
    }
    if (layers.spawn) {
      ctx.fillStyle = 'rgba(255, 60, 60, 0.35)';
      map.spawn_blocked.forEach((row, y) => {
        for (let x = 0; x < row.length; x += 1) if (row[x] === '1') ctx.fillRect(view.x + x * s, view.y + y * s, s, s);
      });
    }
    if (layers.regions && stage >= 1) {
      ctx.lineWidth = 1;
      for (const r of map.regions) {
        ctx.strokeStyle = REGION_COLOURS[r.kind] || '#ccc';
        ctx.fillStyle = (REGION_COLOURS[r.kind] || '#cccccc') + '30';
        ctx.fillRect(view.x + r.x * s, view.y + r.y * s, r.width * s, r.height * s);
        rectPath(r.x, r.y, r.width, r.height, 0.5);
      }
    }
    if (layers.objects) {
      for (const o of map.objects) {
        if (objectStage(o) > stage) continue;
        for (const [x, y, glyph] of o.cells) {
          if (glyphs) {
            ctx.fillStyle = '#000';
            ctx.fillRect(view.x + x * s, view.y + y * s, s, s);
            ctx.fillStyle = OBJECT_COLOURS[o.kind] || '#fff';
            ctx.fillText(glyph, view.x + (x + 0.5) * s, view.y + (y + 0.5) * s);
          } else {
            fillCell(x, y, OBJECT_COLOURS[o.kind] || '#fff', s >= 3 ? 0.2 : 0);
          }
        }
      }
    }
    if (layers.links) {
      for (const [at] of doorsAt) fillCell(at % W, Math.floor(at / W), DOOR_COLOUR, 0.35);
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = Math.max(1, s / 6);
      for (const l of map.links) {
        const p = map.prefabs[l.prefab];
        if (p && PREFAB_STAGE[p.stage] > stage) continue;
        const [dx, dy] = { north: [0, -1], south: [0, 1], east: [1, 0], west: [-1, 0] }[l.dir] || [0, 0];
        const cx = view.x + (l.x + 0.5) * s;
        const cy = view.y + (l.y + 0.5) * s;
        ctx.beginPath();
        ctx.moveTo(cx, cy);
        ctx.lineTo(cx + dx * s, cy + dy * s);
        ctx.stroke();
      }
    }
    if (layers.marks && stage >= MARKS_STAGE) drawMarks();
    if (layers.prefabs) {
      ctx.lineWidth = Math.max(1, Math.min(3, s / 3));
      map.prefabs.forEach((p) => {
        const at = PREFAB_STAGE[p.stage];
        if (at > stage || !outlined(p)) return;
        ctx.strokeStyle = prefabColour(p);
        rectPath(p.x, p.y, p.width, p.height, ctx.lineWidth / 2);
        if (stage < STAGES.length && at === stage) {
          ctx.setLineDash([4, 3]);
          ctx.strokeStyle = '#ffffff';
          rectPath(p.x - 0.25, p.y - 0.25, p.width + 0.5, p.height + 0.5, 0);
          ctx.setLineDash([]);
        }
      });
    }
    if (layers.places) drawEventPlaces();
    if (found.query) drawFound();
    for (const [cell, colour] of [[hovered, '#ffffffa0'], [pinned, '#00e0ff']]) {
      if (!cell) continue;
      ctx.strokeStyle = colour;
      ctx.lineWidth = 2;
      rectPath(cell.x, cell.y, 1, 1, -1);
    }
  }

  // Whether a prefab's outline is drawn: encounters and features always,
  // layout prefabs when their layer is on or the timeline shows the layout.
  function outlined(p) {
    return p.stage !== 'layout' || layers.layoutPrefabs || stage === 1;
  }

  // The search's matches: outlined and filled in a colour of their own;
  // with "only matches", the rest of the map darkened.
  function drawFound() {
    const s = view.scale;
    if (onlyFound) {
      ctx.fillStyle = 'rgba(0, 0, 0, 0.75)';
      ctx.fillRect(view.x, view.y, W * s, H * s);
    }
    ctx.strokeStyle = FOUND_COLOUR;
    ctx.lineWidth = Math.max(2, Math.min(4, s / 2));
    for (const i of found.prefabs) {
      const p = map.prefabs[i];
      if (onlyFound) drawTerrainPart(p.x, p.y, p.width, p.height);
      rectPath(p.x, p.y, p.width, p.height, -1);
    }
    for (const i of found.objects) {
      for (const [x, y] of map.objects[i].cells) fillCell(x, y, FOUND_COLOUR, 0);
    }
  }

  // A cell mark: a small diamond in the cell's top-left corner, so the glyph
  // or object drawn on the cell stays readable.
  function drawMarks() {
    ctx.fillStyle = MARK_COLOUR;
    const s = view.scale;
    const r = Math.max(1, s / 4);
    for (const [at] of marksAt) {
      const cx = view.x + (at % W) * s + r;
      const cy = view.y + Math.floor(at / W) * s + r;
      ctx.beginPath();
      ctx.moveTo(cx, cy - r);
      ctx.lineTo(cx + r, cy);
      ctx.lineTo(cx, cy + r);
      ctx.lineTo(cx - r, cy);
      ctx.closePath();
      ctx.fill();
    }
  }

  // Before the layout, only the features exist; before the encounters, the
  // rooms they fill still look as the layout left them: darken what is not there yet.
  function drawTimelineShade(glyphs) {
    if (stage >= 2) return;
    ctx.fillStyle = 'rgba(0, 0, 0, 0.7)';
    const s = view.scale;
    const later = map.prefabs.filter((p) => PREFAB_STAGE[p.stage] > stage);
    if (stage === 0) {
      ctx.fillRect(view.x, view.y, W * s, H * s);
      if (!glyphs) for (const p of map.prefabs) if (p.stage === 'feature') drawTerrainPart(p.x, p.y, p.width, p.height);
    } else {
      for (const p of later) ctx.fillRect(view.x + p.x * s, view.y + p.y * s, p.width * s, p.height * s);
    }
  }

  function drawEventPlaces() {
    ctx.lineWidth = 2;
    trace.forEach((e, i) => {
      if (!e.place) return;
      const shown = i === selectedEvent || (stage < STAGES.length && stageOfEvent(e) === stage);
      if (!shown) return;
      const [x, y, w, h] = e.place;
      ctx.strokeStyle = e.outcome === 'skipped' ? '#ff5050' : e.outcome === 'chose' ? '#50ff50' : '#c0c0c0';
      ctx.setLineDash(i === selectedEvent ? [] : [3, 3]);
      rectPath(x, y, w, h, 1);
      ctx.setLineDash([]);
    });
  }

  // --- the cell panel -----------------------------------------------------
  function element(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  function facts(title, rows) {
    const frag = document.createDocumentFragment();
    frag.appendChild(element('h3', title));
    const dl = element('dl');
    for (const [k, v] of rows) {
      if (v === null || v === undefined || v === '') continue;
      dl.appendChild(element('dt', k));
      if (v instanceof Node) {
        const dd = element('dd');
        dd.appendChild(v);
        dl.appendChild(dd);
      } else {
        dl.appendChild(element('dd', String(v)));
      }
    }
    frag.appendChild(dl);
    return frag;
  }

  function describeCell(cell) {
    const info = document.getElementById('info');
    info.textContent = '';
    if (!cell) {
      info.textContent = 'Hover over the map.';
      return;
    }
    const at = cell.y * W + cell.x;
    const t = map.terrain[terrainAt[at]];
    info.appendChild(facts('(' + cell.x + ', ' + cell.y + ')', [
      ['terrain', t ? t.name + '  "' + t.glyph + '"' : '?'],
      ['passable', map.passable[cell.y][cell.x] === '1' ? 'yes' : 'no'],
      ['spawn', map.spawn_blocked[cell.y][cell.x] === '1' ? 'blocked' : null],
      ['door of', doorsAt.has(at) ? 'region ' + doorsAt.get(at) : null],
      ['link', linksAt.has(at) ? linkText(linksAt.get(at)) : null],
      ['marks', marksAt.has(at) ? marksAt.get(at).join(' ') : null],
    ]));
    const region = regionById.get(regionAt[at]);
    if (region) {
      info.appendChild(facts('Region ' + region.id + ': ' + region.kind, [
        ['bounds', region.width + '×' + region.height + ' at (' + region.x + ', ' + region.y + ')'],
        ['doors', region.doors.map((d) => '(' + d[0] + ', ' + d[1] + ')').join(' ') || 'none'],
        ['neighbours', (region.neighbours || []).map((id) => 'region ' + id).join(', ') || 'none'],
        ['centre', region.centre ? '(' + region.centre.join(', ') + ')' : null],
      ]));
    }
    map.prefabs.forEach((p, i) => {
      if (cell.x < p.x || cell.y < p.y || cell.x >= p.x + p.width || cell.y >= p.y + p.height) return;
      info.appendChild(facts('Prefab ' + p.name, [
        ['placed by', p.stage + (p.encounter ? ' (encounter ' + p.encounter + ', ' + p.category + ')' : '')],
        ['transform', p.transform],
        ['style', p.style],
        ['file', p.file ? fileLink(p.file, p.line) : null],
        ['bounds', p.width + '×' + p.height + ' at (' + p.x + ', ' + p.y + ')'],
        ['index', i],
      ]));
    });
    for (const i of objectsAt.get(at) || []) {
      const o = map.objects[i];
      const d = o.definition;
      info.appendChild(facts((o.name || o.tag || 'machine') + ' (' + o.kind + ')', [
        ['tag', o.tag],
        ['from', o.source === 'furnishing' ? 'furnishing, ' + o.part + (o.region !== null ? ' in region ' + o.region : '') : o.source],
        ['definition', d ? definitionText(d) : null],
        ['keywords', o.keywords.map(([k, v]) => (v === null ? k : k + ':' + v)).join(' ')],
        ['blocks', o.blocks ? 'yes' : null],
        ['pile', o.pile],
      ]));
    }
  }

  // `file:line`, a link when the page has an editor URL template
  // (`--editor-url`): {path} becomes the file's path, made absolute with the
  // folder the page was made in, and {line} its line.
  function fileLink(file, line) {
    const text = file + (line ? ':' + line : '');
    if (!config.editor_url) return text;
    const absolute = file.startsWith('/') || /^[A-Za-z]:[\\/]/.test(file) || !config.editor_base
      ? file : config.editor_base.replace(/\/$/, '') + '/' + file;
    const a = element('a', text, 'file-link');
    a.href = config.editor_url.split('{path}').join(encodeURI(absolute)).split('{line}').join(String(line || 1));
    a.title = 'Open in your editor';
    return a;
  }

  function definitionText(d) {
    const span = element('span');
    span.appendChild(fileLink(d.file, d.line));
    const alternative = d.alternatives > 1 ? ' (alternative ' + (d.alternative + 1) + ' of ' + d.alternatives + ')' : '';
    span.appendChild(document.createTextNode('  ' + d.glyph + ' → ' + d.pick + alternative));
    return span;
  }

  function linkText(l) {
    const p = map.prefabs[l.prefab];
    return l.kind + ' ' + l.dir + ', width ' + l.width + (p ? ' (' + p.name + ')' : '');
  }

  // --- layers and timeline controls ----------------------------------------
  function buildLayers() {
    const box = document.getElementById('layers');
    const entries = [
      ['terrain', 'terrain'], ['glyphs', 'glyphs (zoomed in)'], ['regions', 'regions, by kind'],
      ['prefabs', 'prefab outlines: encounters and features'],
      ['layoutPrefabs', 'layout prefab outlines (' + map.prefabs.filter((p) => p.stage === 'layout').length + ')'],
      ['objects', 'objects'], ['links', 'links and doors'],
      ['marks', 'cell marks'], ['spawn', 'spawn-blocked cells'], ['places', 'trace places'],
    ];
    for (const [key, text] of entries) {
      const label = element('label');
      const input = element('input');
      input.type = 'checkbox';
      input.id = 'layer-' + key;
      input.checked = layers[key];
      input.addEventListener('change', () => {
        layers[key] = input.checked;
        saveState();
        draw();
      });
      label.appendChild(input);
      label.appendChild(document.createTextNode(' ' + text));
      if (key === 'prefabs') {
        const select = element('select');
        select.id = 'prefab-colouring';
        for (const v of ['category', 'stage']) {
          const option = element('option', 'by ' + v);
          option.value = v;
          select.appendChild(option);
        }
        select.value = prefabColouring;
        select.addEventListener('change', () => {
          prefabColouring = select.value;
          buildPrefabKey();
          saveState();
          draw();
        });
        label.appendChild(select);
      }
      box.appendChild(label);
    }
    box.appendChild(buildKey());
  }

  // The colour key: region kinds, prefab outlines (by category or by stage,
  // as the layer's choice says), objects, and the other marks.
  function buildKey() {
    const key = element('div');
    key.id = 'key';
    const group = (id, title, entries) => {
      const row = element('div', undefined, 'key-group');
      row.id = id;
      row.appendChild(element('span', title + ': ', 'key-title'));
      for (const [colour, text] of entries) row.appendChild(swatch(colour, text));
      return row;
    };
    key.appendChild(group('key-regions', 'regions', Object.entries(REGION_COLOURS).map(([kind, c]) => [c, kind])));
    key.appendChild(group('key-prefabs', 'prefabs', []));
    key.appendChild(group('key-objects', 'objects', Object.entries(OBJECT_COLOURS).map(([kind, c]) => [c, kind])));
    key.appendChild(group('key-marks', 'marks', [[DOOR_COLOUR, 'door'], ['#ffffff', 'link'], [MARK_COLOUR, 'cell mark'], [FOUND_COLOUR, 'search match']]));
    setTimeout(buildPrefabKey);
    return key;
  }

  function buildPrefabKey() {
    const row = document.getElementById('key-prefabs');
    if (!row) return;
    while (row.childNodes.length > 1) row.removeChild(row.lastChild);
    const entries = prefabColouring === 'stage'
      ? Object.entries(STAGE_COLOURS).map(([name, c]) => [c, name])
      : Object.values(CATEGORY_COLOURS).concat([['#ffffff', 'feature'], ['#80a0ff', 'other']]);
    for (const [colour, text] of entries) row.appendChild(swatch(colour, text));
  }

  // --- search -------------------------------------------------------------------
  function buildSearch() {
    const input = document.getElementById('search');
    const only = document.getElementById('search-only');
    input.addEventListener('input', () => search(input.value));
    only.addEventListener('change', () => {
      onlyFound = only.checked;
      draw();
    });
  }

  // Finds prefabs by name or encounter id and objects by name or tag
  // (case ignored), lists them and draws them.
  function search(text) {
    const query = text.trim().toLowerCase();
    const has = (v) => typeof v === 'string' && v.toLowerCase().includes(query);
    found = { query, prefabs: [], objects: [] };
    if (query) {
      map.prefabs.forEach((p, i) => { if (has(p.name) || has(p.encounter)) found.prefabs.push(i); });
      map.objects.forEach((o, i) => { if (has(o.name) || has(o.tag)) found.objects.push(i); });
    }
    listFound();
    draw();
    return found;
  }

  function listFound() {
    const box = document.getElementById('search-results');
    box.textContent = '';
    if (!found.query) return;
    const n = found.prefabs.length + found.objects.length;
    box.appendChild(element('div', found.prefabs.length + ' prefabs and ' + found.objects.length + ' objects match', 'summary'));
    const rows = found.prefabs.map((i) => {
      const p = map.prefabs[i];
      return ['prefab ' + p.name + (p.encounter ? ' (encounter ' + p.encounter + ')' : ''), p.x, p.y, p.width, p.height];
    }).concat(found.objects.map((i) => {
      const o = map.objects[i];
      const [x, y] = o.cells[0] || [0, 0];
      return [(o.name || o.tag || o.kind) + ' (' + o.kind + ')', x, y, 1, 1];
    }));
    for (const [text, x, y, w, h] of rows.slice(0, 100)) {
      const row = element('div', text + ' at (' + x + ', ' + y + ')', 'event placed');
      row.addEventListener('click', () => {
        view.x = canvas.clientWidth / 2 - (x + w / 2) * view.scale;
        view.y = canvas.clientHeight / 2 - (y + h / 2) * view.scale;
        pinned = { x, y };
        describeCell(pinned);
        draw();
      });
      box.appendChild(row);
    }
    if (n > 100) box.appendChild(element('div', (n - 100) + ' more not listed', 'summary'));
  }

  function swatch(colour, text) {
    const span = element('span');
    span.style.marginRight = '8px';
    const sw = element('span', undefined, 'swatch');
    sw.style.background = colour;
    span.appendChild(sw);
    span.appendChild(document.createTextNode(text));
    return span;
  }

  function buildTimeline() {
    const box = document.getElementById('stages');
    const buttons = [];
    const names = STAGES.concat(['all']);
    names.forEach((name, i) => {
      const count = i < STAGES.length ? trace.filter((e) => stageOfEvent(e) === i).length : trace.length;
      const b = element('button', name + ' (' + count + ')');
      b.type = 'button';
      b.id = 'stage-' + name;
      b.addEventListener('click', () => {
        stage = i;
        selectedEvent = null;
        buttons.forEach((other, j) => other.classList.toggle('on', j === i));
        listEvents();
        saveState();
        draw();
      });
      buttons.push(b);
      box.appendChild(b);
    });
    buttons.forEach((b, j) => b.classList.toggle('on', j === stage));
    listEvents();
  }

  function stageSummary(i) {
    if (i === 0) return map.prefabs.filter((p) => p.stage === 'feature').length + ' feature prefabs' + (map.feature_variant ? ' (variant ' + map.feature_variant + ')' : '');
    if (i === 1) return map.regions.filter((r) => r.kind !== 'prefab').length + ' regions and ' + map.prefabs.filter((p) => p.stage === 'layout').length + ' layout prefabs by ' + map.generator;
    if (i === 2) return map.prefabs.filter((p) => p.stage === 'encounter').length + ' encounters';
    const n = map.objects.filter((o) => objectStage(o) === i).length;
    return n + (i === 3 ? ' objects furnished' : ' objects from definitions');
  }

  function listEvents() {
    const box = document.getElementById('events');
    box.textContent = '';
    if (!trace.length) {
      box.textContent = 'No trace in this file.';
      return;
    }
    if (stage < STAGES.length) box.appendChild(element('div', 'Added: ' + stageSummary(stage), 'summary'));
    const shown = trace.map((e, i) => [e, i]).filter(([e]) => stage === STAGES.length || stageOfEvent(e) === stage);
    const skipped = shown.filter(([e]) => e.outcome === 'skipped').length;
    box.appendChild(element('div', shown.length + ' events, ' + skipped + ' rejected or skipped', 'summary'));
    for (const [e, i] of shown) {
      const row = element('div', undefined, 'event ' + e.outcome + (e.place ? ' placed' : ''));
      row.appendChild(element('span', e.outcome, 'outcome'));
      row.appendChild(document.createTextNode((stage === STAGES.length ? '[' + e.stage + '] ' : '') + e.message));
      if (e.place) {
        row.title = 'Show it on the map';
        row.addEventListener('click', () => {
          selectedEvent = i;
          for (const other of box.querySelectorAll('.event.selected')) other.classList.remove('selected');
          row.classList.add('selected');
          const [x, y, w, h] = e.place;
          view.x = canvas.clientWidth / 2 - (x + w / 2) * view.scale;
          view.y = canvas.clientHeight / 2 - (y + h / 2) * view.scale;
          draw();
        });
      }
      box.appendChild(row);
    }
  }

  // --- header -----------------------------------------------------------------
  function buildHeader() {
    document.getElementById('title').textContent = 'prefabric — ' + map.map_type;
    const parts = ['seed ' + map.seed, 'depth ' + map.depth, W + '×' + H, map.generator];
    if (map.feature_variant) parts.push('variant ' + map.feature_variant);
    parts.push(map.prefabs.length + ' prefabs', map.objects.length + ' objects');
    document.getElementById('facts').textContent = parts.join(' · ');
    const command = config.command || 'prefabric generate --map-type ' + map.map_type + ' --seed ' + map.seed + ' --depth ' + map.depth;
    document.getElementById('command').textContent = command;
    document.getElementById('copy').addEventListener('click', () => {
      const done = () => { document.getElementById('copy').textContent = 'copied'; };
      if (navigator.clipboard) navigator.clipboard.writeText(command).then(done, () => {});
    });
    const nav = document.getElementById('links');
    for (const l of config.links || []) {
      const a = element('a', l.text);
      a.href = l.href;
      nav.appendChild(a);
    }
    const steps = document.getElementById('seed-steps');
    for (const n of config.neighbours || []) {
      steps.hidden = false;
      const box = element('span', undefined, 'step');
      box.id = n.id;
      box.appendChild(element('span', n.label + ': ', 'key-title'));
      const code = element('code', n.command);
      box.appendChild(code);
      const copy = element('button', 'copy');
      copy.type = 'button';
      copy.addEventListener('click', () => {
        if (navigator.clipboard) navigator.clipboard.writeText(n.command).then(() => { copy.textContent = 'copied'; }, () => {});
      });
      box.appendChild(copy);
      steps.appendChild(box);
    }
    if (config.problems && config.problems.length) {
      const box = document.getElementById('problems');
      box.hidden = false;
      box.textContent = config.problems.join('\n');
    }
  }

  // --- pointer and keys -------------------------------------------------------
  function cellAt(clientX, clientY) {
    const r = canvas.getBoundingClientRect();
    const x = Math.floor((clientX - r.left - view.x) / view.scale);
    const y = Math.floor((clientY - r.top - view.y) / view.scale);
    return x >= 0 && y >= 0 && x < W && y < H ? { x, y } : null;
  }

  let drag = null;
  canvas.addEventListener('pointerdown', (e) => {
    drag = { x: e.clientX, y: e.clientY, vx: view.x, vy: view.y, moved: false };
    canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener('pointermove', (e) => {
    if (drag) {
      const dx = e.clientX - drag.x;
      const dy = e.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 4) drag.moved = true;
      if (drag.moved) {
        canvas.classList.add('dragging');
        view.x = drag.vx + dx;
        view.y = drag.vy + dy;
        draw();
        return;
      }
    }
    const cell = cellAt(e.clientX, e.clientY);
    if ((cell && hovered && cell.x === hovered.x && cell.y === hovered.y) || cell === hovered) return;
    hovered = cell;
    if (!pinned) describeCell(hovered);
    draw();
  });
  canvas.addEventListener('pointerup', (e) => {
    if (drag && !drag.moved) {
      const cell = cellAt(e.clientX, e.clientY);
      pinned = cell && !(pinned && pinned.x === cell.x && pinned.y === cell.y) ? cell : null;
      describeCell(pinned || cell);
      draw();
    }
    if (drag && drag.moved) saveState();
    drag = null;
    canvas.classList.remove('dragging');
  });
  canvas.addEventListener('pointerleave', () => {
    if (drag) return;
    hovered = null;
    if (!pinned) describeCell(null);
    draw();
  });
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    const r = canvas.getBoundingClientRect();
    zoomAt(e.deltaY < 0 ? 1.25 : 0.8, e.clientX - r.left, e.clientY - r.top);
    saveState();
  }, { passive: false });
  const centreZoom = (f) => zoomAt(f, canvas.clientWidth / 2, canvas.clientHeight / 2);
  document.getElementById('zoom-in').addEventListener('click', () => centreZoom(1.5));
  document.getElementById('zoom-out').addEventListener('click', () => centreZoom(1 / 1.5));
  document.getElementById('zoom-fit').addEventListener('click', () => { fit(); draw(); });
  document.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    const step = 40;
    const keys = {
      '+': () => centreZoom(1.5), '=': () => centreZoom(1.5), '-': () => centreZoom(1 / 1.5), '0': () => { fit(); draw(); },
      ArrowLeft: () => { view.x += step; draw(); }, ArrowRight: () => { view.x -= step; draw(); },
      ArrowUp: () => { view.y += step; draw(); }, ArrowDown: () => { view.y -= step; draw(); },
      Escape: () => { pinned = null; describeCell(hovered); draw(); },
    };
    if (keys[e.key]) {
      keys[e.key]();
      e.preventDefault();
    }
  });

  // --- watch mode: keep the view across reloads -----------------------------
  function saveState() {
    if (!config.reload_from) return;
    try {
      sessionStorage.setItem(STATE_KEY, JSON.stringify({ view, layers, prefabColouring, stage }));
    } catch (_) { /* storage may be off for file pages: the view then resets */ }
  }

  function restoreState() {
    if (!config.reload_from) return false;
    try {
      const saved = JSON.parse(sessionStorage.getItem(STATE_KEY) || 'null');
      if (!saved) return false;
      view = saved.view;
      Object.assign(layers, saved.layers);
      prefabColouring = saved.prefabColouring;
      stage = saved.stage;
      return true;
    } catch (_) {
      return false;
    }
  }

  window.prefabricStamp = function (stamp) {
    if (stamp !== config.stamp) {
      saveState();
      location.reload();
    }
  };

  function pollForChanges() {
    const script = document.createElement('script');
    script.src = config.reload_from + '?' + Date.now();
    script.onload = script.onerror = () => script.remove();
    document.head.appendChild(script);
  }

  // --- start ------------------------------------------------------------------
  const restored = restoreState();
  buildHeader();
  buildLayers();
  buildSearch();
  buildTimeline();
  window.addEventListener('resize', resize);
  if (!restored) {
    canvas.width = canvas.clientWidth;
    fit();
  }
  resize();
  if (config.reload_from) setInterval(pollForChanges, 1000);

  // What the browser test (and a curious designer's console) can ask.
  window.prefabricViewer = {
    map,
    layers,
    draw,
    search,
    /** How many prefabs are outlined now. */
    outlinedCount() {
      return layers.prefabs ? map.prefabs.filter((p) => PREFAB_STAGE[p.stage] <= stage && outlined(p)).length : 0;
    },
    /** The page coordinates of the centre of cell (x, y), as it is drawn now. */
    cellToClient(x, y) {
      const r = canvas.getBoundingClientRect();
      return { x: r.left + view.x + (x + 0.5) * view.scale, y: r.top + view.y + (y + 0.5) * view.scale };
    },
    ready: true,
  };
})();

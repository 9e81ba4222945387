// SPDX-License-Identifier: MIT
// perfkit's flame graph script, embedded in every SVG perfkit writes
// (export-flamegraph.c): lays out PK.nodes ([up, name, kind, rest] per
// node, parents first, the parent `up` nodes back, the node's total its
// rest plus its children's totals, all in units of PK.scale; PK.src: [file, line] per node into
// PK.files, when the profile has source lines) and gives them hover
// details (name, file:line of its hottest line, weight, share), click to
// zoom, search with the matches' total share, reset, and the icicle form.
// With PK.old (perfkit diff) it is a differential graph: see the end.
var W = 1200, FH = 16, TOP = 40, BOTTOM = 26, NS = 'http://www.w3.org/2000/svg';
var N = [], zoomed = 0, matchRe = null, svg, details, matched, resetBtn;

function pkText(x, y, s, anchor, id, cls) {
	var t = document.createElementNS(NS, 'text');
	t.setAttribute('x', x); t.setAttribute('y', y);
	if (anchor) t.setAttribute('text-anchor', anchor);
	if (id) t.setAttribute('id', id);
	if (cls) t.setAttribute('class', cls);
	t.textContent = s;
	svg.appendChild(t);
	return t;
}

function pkInit() {
	svg = document.documentElement;
	var a = PK.nodes, n = a.length / 4, i;
	for (i = 0; i < n; i++)
		N.push({ p: i - a[i * 4], name: a[i * 4 + 1] ? PK.names[a[i * 4 + 1] - 1] : 'all',
			 kind: a[i * 4 + 2], total: a[i * 4 + 3], kids: [], depth: 0,
			 src: PK.src && PK.src[2 * i] ? PK.files[PK.src[2 * i] - 1] + ':' + PK.src[2 * i + 1] : '' });
	for (i = 1; i < n; i++) {
		N[N[i].p].kids.push(i);
		N[i].depth = N[N[i].p].depth + 1;
	}
	for (i = n - 1; i > 0; i--) N[N[i].p].total += N[i].total;
	for (i = 0; i < n; i++) N[i].total *= PK.scale;
	if (PK.old) pkDiffInit();
	var h = TOP + (PK.depth + 1) * FH + BOTTOM;
	svg.setAttribute('height', h);
	svg.setAttribute('viewBox', '0 0 ' + W + ' ' + h);
	pkText(W / 2, 20, PK.title, 'middle', 'title').setAttribute('style', 'font-size:17px');
	resetBtn = pkText(10, 20, 'Reset Zoom', null, 'reset', 'btn');
	resetBtn.setAttribute('visibility', 'hidden');
	resetBtn.onclick = pkReset;
	pkText(W - 10, 20, 'Search', 'end', 'search', 'btn').onclick = function () {
		if (matchRe) { pkSearch(null); return; }
		var term = prompt('Search for (a regular expression):', '');
		if (term) pkSearch(term);
	};
	details = pkText(10, h - 8, ' ', null, 'details');
	matched = pkText(W - 10, h - 8, ' ', 'end', 'matched');
	pkDraw();
}

function pkHash(s) {
	var h = 0;
	for (var i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) >>> 0;
	return (h % 1000) / 1000;
}

// user warm, kernel orange, JIT green, inlined blue, comm grey, merged pale;
// perfkit report's off-CPU marker frames ("[off-cpu: S]") violet.
function pkColour(nd) {
	var v = pkHash(nd.name), r, g, b;
	if (matchRe && matchRe.test(nd.name)) return 'rgb(230,0,230)';
	if (PK.old) return pkDiffColour(nd);
	if (nd.name.lastIndexOf('[off-cpu', 0) === 0)
		return 'rgb(' + Math.round(130 + 30 * v) + ',' + Math.round(90 + 30 * v) + ',220)';
	switch (nd.kind) {
	case 0: r = 205 + 50 * v; g = 40 + 150 * v; b = 40; break;
	case 1: r = 235 + 20 * v; g = 140 + 30 * v; b = 20; break;
	case 2: r = 50 + 40 * v; g = 190 + 50 * v; b = 60 + 30 * v; break;
	case 3: r = 70 + 40 * v; g = 150 + 40 * v; b = 225 + 30 * v; break;
	case 4: r = g = b = 175 + 40 * v; break;
	default: r = g = b = 225;
	}
	return 'rgb(' + Math.round(r) + ',' + Math.round(g) + ',' + Math.round(b) + ')';
}

function pkShare(v) {
	return (100 * v / (N[0].total || 1)).toFixed(2) + '%';
}

function pkFrame(parent, i, x, w, faded) {
	var nd = N[i], y = PK.icicle ? TOP + nd.depth * FH : TOP + (PK.depth - nd.depth) * FH;
	var g = document.createElementNS(NS, 'g'), r = document.createElementNS(NS, 'rect');
	var info = PK.old ? pkDiffInfo(nd) : nd.name + (nd.src ? ' (' + nd.src + ')' : '') + ' (' + nd.total + ' ' + PK.unit + ', ' + pkShare(nd.total) + ')';
	var title = document.createElementNS(NS, 'title');
	title.textContent = info;
	g.appendChild(title);
	r.setAttribute('x', x); r.setAttribute('y', y);
	r.setAttribute('width', Math.max(w - 0.5, 0.1)); r.setAttribute('height', FH - 1);
	r.setAttribute('rx', 2); r.setAttribute('fill', pkColour(nd));
	if (faded) r.setAttribute('fill-opacity', 0.5);
	g.appendChild(r);
	if (w > 24) {
		var t = document.createElementNS(NS, 'text'), fit = Math.floor((w - 6) / 7);
		t.setAttribute('x', x + 3); t.setAttribute('y', y + FH - 5);
		t.textContent = nd.name.length <= fit ? nd.name : nd.name.substring(0, fit - 2) + '..';
		g.appendChild(t);
	}
	g.onmouseover = function () { details.textContent = info; };
	g.onmouseout = function () { details.textContent = ' '; };
	g.onclick = function () { pkZoom(i); };
	parent.appendChild(g);
}

function pkPlace(parent, i, x, w) {
	if (w < 0.3) return;
	pkFrame(parent, i, x, w, false);
	var cx = x, nd = N[i];
	for (var k = 0; k < nd.kids.length; k++) {
		var cw = w * N[nd.kids[k]].total / (nd.total || 1);
		pkPlace(parent, nd.kids[k], cx, cw);
		cx += cw;
	}
}

function pkDraw() {
	var frames = document.getElementById('frames');
	while (frames.firstChild) frames.removeChild(frames.firstChild);
	for (var a = N[zoomed].p; zoomed; a = N[a].p) {
		pkFrame(frames, a, 10, W - 20, true);
		if (!a) break;
	}
	pkPlace(frames, zoomed, 10, W - 20);
	resetBtn.setAttribute('visibility', zoomed ? 'visible' : 'hidden');
}

function pkZoom(i) { zoomed = i; pkDraw(); }
function pkReset() { zoomed = 0; pkDraw(); }

// Highlight frames matching `term`; their total share counts each sample
// once (a match inside a match adds nothing).
function pkSearch(term) {
	matchRe = term ? new RegExp(term) : null;
	var sum = 0, inMatch = [];
	for (var i = 0; i < N.length; i++) {
		inMatch[i] = i && inMatch[N[i].p];
		if (matchRe && i && !inMatch[i] && matchRe.test(N[i].name)) {
			sum += N[i].total;
			inMatch[i] = true;
		}
	}
	matched.textContent = matchRe ? 'Matched: ' + pkShare(sum) : ' ';
	document.getElementById('search').textContent = matchRe ? 'Clear search' : 'Search';
	pkDraw();
}

// ---- the differential graph (perfkit diff --format=flamegraph) ----------
// PK.old[i] is box i's total in the old profile and PK.oldTotal that
// profile's whole.  A box is coloured by the change of its share of all
// samples, old to new: red grew, blue shrank, white unchanged, the
// strongest colour for the largest change in the graph.
var diffMax = 0;

function pkDelta(nd) {
	return nd.total / (N[0].total || 1) - nd.old / (PK.oldTotal || 1);
}

function pkDiffInit() {
	for (var i = 0; i < N.length; i++) N[i].old = PK.old[i];
	for (i = 1; i < N.length; i++) diffMax = Math.max(diffMax, Math.abs(pkDelta(N[i])));
}

function pkDiffColour(nd) {
	var d = pkDelta(nd), t = diffMax ? Math.min(1, Math.abs(d) / diffMax) : 0;
	var c = Math.round(255 * (1 - t));
	if (d > 0) return 'rgb(255,' + c + ',' + c + ')';
	if (d < 0) return 'rgb(' + c + ',' + c + ',255)';
	return 'rgb(255,255,255)';
}

function pkDiffInfo(nd) {
	var d = 100 * pkDelta(nd);
	return nd.name + ' (old ' + nd.old + ' ' + PK.unit + ', ' + (100 * nd.old / (PK.oldTotal || 1)).toFixed(2) +
		'%; new ' + nd.total + ' ' + PK.unit + ', ' + pkShare(nd.total) + '; ' + (d >= 0 ? '+' : '') +
		d.toFixed(2) + '%)';
}

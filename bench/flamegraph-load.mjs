// SPDX-License-Identifier: MIT
// flamegraph-load.mjs - how soon perfkit's flame graph SVG is usable in
// headless Chromium (puppeteer-core, as tests/export/browser.mjs drives
// it): for each SVG, RUNS fresh loads, each timed in the page from
// navigation start (performance.now()) to
//   load   the load event's end (the graph's script has laid it out),
//   hover  the details line naming the frame under the pointer (the
//          widest frame above the root, scrolled into view as a user
//          would), measured when the line changes,
//   zoom   a click on that frame redrawn zoomed (the Reset Zoom button
//          shown and the next animation frame painted),
// and the frames drawn.  Prints one line per SVG with the medians.
// A benchmark only: nothing here passes or fails on time.
// usage: node flamegraph-load.mjs CHROMIUM NODE_MODULES RUNS FILE.svg...
import { createRequire } from 'module';

const [chromium, modules, runsArg, ...svgs] = process.argv.slice(2);
const require = createRequire(modules + '/');
const puppeteer = require('puppeteer-core');
const runs = Math.max(1, Number(runsArg) || 5);

const median = (a) => { const s = [...a].sort((x, y) => x - y), m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

// One load of `svg`: {load, hover, zoom, frames} in ms from navigation start.
async function once(browser, svg) {
	const page = await browser.newPage();
	await page.setViewport({ width: 1200, height: 800 });
	await page.goto('file://' + svg, { waitUntil: 'load', timeout: 120000 });
	// The widest frame below "all" (depth 1), into view; watchers on the
	// details line and the Reset Zoom button record when each answers.
	const target = await page.evaluate(() => {
		let best = null, bw = -1;
		for (const g of document.querySelectorAll('#frames g')) {
			const r = g.querySelector('rect'), w = Number(r.getAttribute('width'));
			if (g.querySelector('title').textContent.startsWith('all (')) continue;
			if (w > bw) { bw = w; best = g; }
		}
		best.setAttribute('id', 'pk-bench-target');
		best.scrollIntoView({ block: 'center' });
		const note = (key) => () => { if (!window[key]) window[key] = performance.now(); };
		new MutationObserver(note('pkHoverAt')).observe(document.getElementById('details'),
			{ childList: true, characterData: true, subtree: true });
		new MutationObserver(() => {
			if (document.getElementById('reset').getAttribute('visibility') === 'visible' && !window.pkZoomSeen) {
				window.pkZoomSeen = 1;
				requestAnimationFrame(() => requestAnimationFrame(note('pkZoomAt')));
			}
		}).observe(document.getElementById('reset'), { attributes: true });
		const r = best.querySelector('rect').getBoundingClientRect();
		return { x: r.x + Math.min(r.width / 2, 300), y: r.y + r.height / 2 };
	});
	await page.mouse.move(target.x, target.y);
	await page.waitForFunction(() => window.pkHoverAt, { timeout: 60000 });
	await page.mouse.click(target.x, target.y);
	await page.waitForFunction(() => window.pkZoomAt, { timeout: 60000 });
	const t = await page.evaluate(() => ({
		load: performance.getEntriesByType('navigation')[0].loadEventEnd,
		hover: window.pkHoverAt, zoom: window.pkZoomAt,
		frames: 0 }));
	await page.evaluate(() => document.getElementById('reset').onclick());
	t.frames = await page.evaluate(() => document.querySelectorAll('#frames g').length);
	await page.close();
	return t;
}

const browser = await puppeteer.launch({ executablePath: chromium, headless: true,
	args: ['--no-sandbox', '--enable-unsafe-swiftshader'], protocolTimeout: 300000 });
try {
	for (const svg of svgs) {
		const all = [];
		for (let i = 0; i < runs; i++) all.push(await once(browser, svg));
		const m = (k) => median(all.map((x) => x[k])).toFixed(0);
		console.log(`${svg}: load ${m('load')} ms, hover answered ${m('hover')} ms, click zoomed ${m('zoom')} ms ` +
			`(medians of ${runs} loads from navigation start; ${all[0].frames} frames drawn)`);
	}
} finally {
	await browser.close();
}

// SPDX-License-Identifier: MIT
// browser.mjs - perfkit's flame graph and speedscope export in headless
// Chromium, driven by puppeteer-core as a user would: hover, click to
// zoom, search, reset, with what is drawn checked in screenshots (pixels
// of the rendered page, not the SVG's text).  TAP on stdout.
// usage: node browser.mjs CHROMIUM NODE_MODULES FLAME.svg ICICLE.svg SPEEDSCOPE.json
import { createRequire } from 'module';
import zlib from 'zlib';

const [chromium, modules, flame, icicle, speedscope] = process.argv.slice(2);
const require = createRequire(modules + '/');
const puppeteer = require('puppeteer-core');
let n = 0, failed = 0;
function ok(cond, desc, diag) {
	n++;
	console.log(`${cond ? 'ok' : 'not ok'} ${n} - ${desc}`);
	if (!cond) { failed = 1; if (diag !== undefined) console.log('# ' + String(diag).replace(/\n/g, '\n# ')); }
}

// A PNG screenshot to {w, h, px(x, y) -> [r, g, b]} (8-bit RGB or RGBA).
function decodePng(buf) {
	const w = buf.readUInt32BE(16), h = buf.readUInt32BE(20), type = buf[25];
	const bpp = type === 6 ? 4 : 3, idat = [];
	for (let off = 8; off < buf.length;) {
		const len = buf.readUInt32BE(off), kind = buf.toString('ascii', off + 4, off + 8);
		if (kind === 'IDAT') idat.push(buf.subarray(off + 8, off + 8 + len));
		off += 12 + len;
	}
	const raw = zlib.inflateSync(Buffer.concat(idat)), stride = w * bpp, out = Buffer.alloc(h * stride);
	for (let y = 0; y < h; y++) {
		const f = raw[y * (stride + 1)], src = y * (stride + 1) + 1;
		for (let x = 0; x < stride; x++) {
			const a = x >= bpp ? out[y * stride + x - bpp] : 0, b = y ? out[(y - 1) * stride + x] : 0;
			const c = x >= bpp && y ? out[(y - 1) * stride + x - bpp] : 0, v = raw[src + x];
			let p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
			const pred = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][f];
			out[y * stride + x] = (v + pred) & 255;
		}
	}
	return { w, h, px: (x, y) => { const i = Math.round(y) * stride + Math.round(x) * bpp; return [out[i], out[i + 1], out[i + 2]]; } };
}

async function shot(page) { return decodePng(Buffer.from(await page.screenshot({ type: 'png' }))); }

// The box of the frame named `name` (its title starts "name ("), or null.
async function box(page, name) {
	return page.evaluate((nm) => {
		for (const g of document.querySelectorAll('#frames g')) {
			if (g.querySelector('title').textContent.startsWith(nm + ' (')) {
				const r = g.querySelector('rect').getBoundingClientRect();
				return { x: r.x, y: r.y, w: r.width, h: r.height, cx: r.x + r.width / 2, cy: r.y + r.height / 2 };
			}
		}
		return null;
	}, name);
}
const text = (page, id) => page.$eval('#' + id, (e) => e.textContent);
const fmt = (c) => `rgb(${c.join(',')})`;

async function flameGraph(browser) {
	const page = await browser.newPage();
	await page.setViewport({ width: 1200, height: 300 });
	await page.goto('file://' + flame);
	await page.waitForSelector('#frames g');
	let s = await shot(page);
	const compute = await box(page, 'compute'), sys = await box(page, 'do_sys_open');
	const jit = await box(page, 'jit_hot'), parse = await box(page, 'parse'), comm = await box(page, 'app');
	ok(compute && sys && jit && parse && comm, 'the flame graph draws the profile\'s frames');
	if (!(compute && sys && jit && parse && comm)) return;
	// Colours are read at a frame's top left, clear of its label.
	const fill = (b) => s.px(b.x + 2, b.y + 2);
	const [cr, cg, cb] = fill(compute), [kr, kg, kb] = fill(sys), [jr, jg, jb] = fill(jit), [ir, ig, ib] = fill(parse);
	const [mr, mg, mb] = s.px(comm.x + 2, comm.cy);
	ok(cr > 200 && cb < 80, 'a user frame is drawn warm', fmt([cr, cg, cb]));
	ok(kr > 230 && kg >= 130 && kg <= 175 && kb < 40, 'a kernel frame is drawn orange', fmt([kr, kg, kb]));
	ok(jg > 180 && jg > jr + 60 && jg > jb + 60, 'a JIT frame is drawn green', fmt([jr, jg, jb]));
	ok(ib > 220 && ib > ir + 60, 'an inlined frame is drawn blue', fmt([ir, ig, ib]));
	ok(Math.abs(mr - mg) < 3 && Math.abs(mg - mb) < 3 && mr > 150, 'a comm is drawn grey', fmt([mr, mg, mb]));
	ok(Math.abs(compute.w / 1180 - 180 / 247) < 0.01, 'compute is as wide as its share (72.87%)', compute.w);
	ok(compute.y < (await box(page, 'work')).y, 'the flame graph grows upwards: compute above work');
	const merged = await box(page, '[merged]');
	ok(merged && (await box(page, 'tiny_0')) === null, 'the 100 tiny frames are one [merged] box');

	await page.mouse.move(compute.cx, compute.cy);
	ok((await text(page, 'details')) === 'compute (app.c:48) (180000000 nanoseconds, 72.87%)',
		'hovering shows name, source line, weight and share', await text(page, 'details'));
	const wk0 = await box(page, 'work');
	await page.mouse.move(wk0.cx, wk0.cy);
	ok((await text(page, 'details')) === 'work (app.c:32) (220000000 nanoseconds, 89.07%)',
		'hovering a caller shows the line most of its time passes through', await text(page, 'details'));
	await page.mouse.move(sys.cx, sys.cy);
	ok((await text(page, 'details')) === 'do_sys_open (10000000 nanoseconds, 4.05%)',
		'a frame without a source line shows none', await text(page, 'details'));

	const work = await box(page, 'work');
	await page.mouse.click(work.cx, work.cy);
	const zc = await box(page, 'compute');
	ok(Math.abs(zc.w / 1180 - 180 / 220) < 0.01, 'clicking work zooms: compute takes its share of work', zc.w);
	s = await shot(page);
	const far = s.px(10 + 1180 * 0.8, zc.cy);
	ok(far[0] > 200 && far[2] < 80, 'the zoomed compute is drawn out to 80% of the width', fmt(far));
	ok(await page.$eval('#reset', (e) => e.getAttribute('visibility')) === 'visible', 'Reset Zoom appears when zoomed');

	page.once('dialog', (d) => d.accept('^(work|parse)$'));
	const search = await page.$('#search');
	await search.click();
	await page.waitForFunction(() => document.getElementById('matched').textContent.startsWith('Matched'));
	ok((await text(page, 'matched')) === 'Matched: 89.07%', 'a search shows its matches\' total share, each sample once',
		await text(page, 'matched'));
	s = await shot(page);
	const wk = await box(page, 'work'), hit = s.px(wk.cx, wk.cy), miss = s.px(zc.cx, zc.cy);
	ok(hit[0] > 200 && hit[1] < 30 && hit[2] > 200, 'a match is highlighted magenta', fmt(hit));
	ok(!(miss[1] < 30 && miss[2] > 200), 'a frame that does not match keeps its colour', fmt(miss));

	await page.click('#reset');
	const rc = await box(page, 'compute');
	ok(Math.abs(rc.w - compute.w) < 0.5, 'Reset Zoom shows the whole profile again', rc.w);
	await page.close();
}

async function icicleGraph(browser) {
	const page = await browser.newPage();
	await page.setViewport({ width: 1200, height: 300 });
	await page.goto('file://' + icicle);
	await page.waitForSelector('#frames g');
	const all = await box(page, 'all'), compute = await box(page, 'compute');
	const s = await shot(page), c = s.px(compute.cx, compute.cy);
	ok(all.y < compute.y && c[0] > 200, 'the icicle option hangs the graph from the top', `${all.y} ${compute.y}`);
	await page.close();
}

async function speedscopeView(browser) {
	const page = await browser.newPage();
	await page.setViewport({ width: 1200, height: 700 });
	const errors = [];
	page.on('pageerror', (e) => errors.push(String(e)));
	// Opened as a user does: speedscope's page, then the file through its input.
	await page.goto('file://' + modules + '/speedscope/dist/release/index.html', { waitUntil: 'domcontentloaded' });
	const input = await page.waitForSelector('input[type=file]');
	await input.uploadFile(speedscope);
	await page.waitForFunction(() => document.body.innerText.includes('cpu-clock'), { timeout: 20000 });
	const body = await page.evaluate(() => document.body.innerText);
	ok(body.includes('app (100/100) cpu-clock') && body.includes('1/3'),
		'speedscope loads the export: three thread profiles, the first app (100/100)', body.slice(0, 300));
	ok(errors.length === 0, 'speedscope reports no errors', errors.join('\n'));
	// The time-order view: the canvas is drawn in colour (frames), not blank.
	const s = await shot(page);
	let coloured = 0;
	for (let y = 100; y < 600; y += 10)
		for (let x = 20; x < 1180; x += 20) {
			const [r, g, b] = s.px(x, y);
			if (Math.max(r, g, b) - Math.min(r, g, b) > 40) coloured++;
		}
	ok(coloured > 200, 'speedscope draws the samples as coloured frames', coloured);
	// Hovering the timeline names the frame under the pointer, with its weight.
	let named = false;
	for (let y = 80; y < 400 && !named; y += 12) {
		await page.mouse.move(300, y);
		// two animation frames: speedscope draws its tooltip on the next one
		await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
		named = await page.evaluate(() => document.body.innerText.includes('180.00ms (91%) compute\napp.c:48'));
	}
	ok(named, 'hovering compute in speedscope shows its 180 ms, 91% of thread 100, and its source line');
	await page.close();
}

const browser = await puppeteer.launch({ executablePath: chromium, headless: true,
	args: ['--no-sandbox', '--enable-unsafe-swiftshader'] }).catch((e) => {
	console.log('1..0 # SKIP chromium cannot start: ' + String(e).split('\n')[0]);
	process.exit(0);
});
try {
	await flameGraph(browser);
	await icicleGraph(browser);
	await speedscopeView(browser);
} catch (e) {
	ok(false, 'the browser session ran to the end', e.stack);
}
await browser.close();
console.log(`1..${n}`);
process.exit(failed);

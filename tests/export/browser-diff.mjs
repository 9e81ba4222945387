// SPDX-License-Identifier: MIT
// browser-diff.mjs - perfkit diff's differential flame graph (written by
// diff_synth.c) in headless Chromium through puppeteer-core: each box's
// fill as drawn (read from a screenshot) is red for a frame that grew,
// blue for one that shrank, white for one unchanged, and hovering a frame
// shows its old and new totals and the change.  TAP on stdout.
// usage: node browser-diff.mjs CHROMIUM NODE_MODULES DIFF.svg
import { createRequire } from 'module';

const [chromium, modules, svg] = process.argv.slice(2);
const require = createRequire(modules + '/');
const puppeteer = require('puppeteer-core');
let n = 0, failed = 0;
function ok(cond, desc, diag) {
	n++;
	console.log(`${cond ? 'ok' : 'not ok'} ${n} - ${desc}`);
	if (!cond) { failed = 1; if (diag !== undefined) console.log('# ' + String(diag).replace(/\n/g, '\n# ')); }
}

// The box of the frame named `name` (its title starts "name ("), or null.
async function box(page, name) {
	return page.evaluate((nm) => {
		for (const g of document.querySelectorAll('#frames g')) {
			if (g.querySelector('title').textContent.startsWith(nm + ' (')) {
				const r = g.querySelector('rect').getBoundingClientRect();
				return { x: r.x, y: r.y, w: r.width, cx: r.x + r.width / 2, cy: r.y + r.height / 2 };
			}
		}
		return null;
	}, name);
}

// The colour drawn at (x, y): a 1x1 screenshot there, decoded by the page's
// own canvas so no PNG decoder is needed here.
async function pixel(page, x, y) {
	const png = await page.screenshot({ type: 'png', encoding: 'base64', clip: { x, y, width: 1, height: 1 } });
	const probe = await browser.newPage();
	const rgb = await probe.evaluate(async (data) => {
		const img = new Image();
		img.src = 'data:image/png;base64,' + data;
		await img.decode();
		const c = document.createElement('canvas');
		c.width = c.height = 1;
		const ctx = c.getContext('2d');
		ctx.drawImage(img, 0, 0);
		return Array.from(ctx.getImageData(0, 0, 1, 1).data.slice(0, 3));
	}, png);
	await probe.close();
	return rgb;
}

const browser = await puppeteer.launch({ executablePath: chromium, headless: true,
	args: ['--no-sandbox', '--enable-unsafe-swiftshader'] }).catch((e) => {
	console.log('1..0 # SKIP chromium cannot start: ' + String(e).split('\n')[0]);
	process.exit(0);
});
try {
	const page = await browser.newPage();
	await page.setViewport({ width: 1200, height: 200 });
	await page.goto('file://' + svg);
	await page.waitForSelector('#frames g');
	const grow = await box(page, 'grow'), shrink = await box(page, 'shrink'), same = await box(page, 'same');
	const main = await box(page, 'main'), fresh = await box(page, 'fresh');
	ok(grow && shrink && same && main && fresh, 'the graph draws the new profile\'s frames');
	if (grow && shrink && same && main && fresh) {
		ok(Math.abs(grow.w / 1180 - 300 / 550) < 0.01, 'a frame is as wide as its new share (grow 54.55%)', grow.w);
		// Colours are read at a frame's top left, clear of its label.
		const g = await pixel(page, grow.x + 2, grow.y + 2), s = await pixel(page, shrink.x + 2, shrink.y + 2);
		const m = await pixel(page, main.x + 2, main.y + 2), f = await pixel(page, fresh.x + 2, fresh.y + 2);
		ok(g[0] > 240 && g[1] < 80 && g[2] < 80, 'the grown frame is drawn red', g.join(','));
		ok(s[2] > 240 && s[0] < 30 && s[1] < 30, 'the frame that shrank most is drawn deep blue', s.join(','));
		ok(m[0] > 245 && m[1] > 245 && m[2] > 245, 'an unchanged frame is drawn white', m.join(','));
		ok(f[0] > 240 && f[1] > g[1] + 60, 'a new frame that grew less is a paler red', f.join(','));
		await page.mouse.move(grow.cx, grow.cy);
		const details = await page.$eval('#details', (e) => e.textContent);
		ok(details === 'grow (old 100 count, 20.00%; new 300 count, 54.55%; +34.55%)',
			'hovering the grown frame shows both totals and the change', details);
		await page.mouse.move(shrink.cx, shrink.cy);
		const d2 = await page.$eval('#details', (e) => e.textContent);
		ok(d2 === 'shrink (old 300 count, 60.00%; new 100 count, 18.18%; -41.82%)',
			'hovering the shrunk frame shows a negative change', d2);
	}
} catch (e) {
	ok(false, 'the browser session ran to the end', e.stack);
}
await browser.close();
console.log(`1..${n}`);
process.exit(failed);

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/trace/view/view.js - the script of the page of --trace=FILE.html
 * (docs/view.md), embedded in it by sim/trace/trace_html.c.
 *
 * Reads the two JSON blocks the writer put in the page (fs-events, fs-meta),
 * replays the events once to build keyframes of the state every KEYF events,
 * the lanes of the timeline and the series of the charts; then shows the
 * state after the cursor's event: a keyframe plus at most KEYF events.
 * Event N (1-based, #event=N) is the Nth event line of the text trace of
 * the same run; event 0 is the state when the trace window opens.
 */
(function () {
	'use strict';

	var KEYF = 256;			/* events between keyframes */
	var EV = { SWITCH: 0, WAKING: 1, WAKEUP: 2, WAKEUP_NEW: 3,
		   FENTER: 4, FEXIT: 5, NSENTER: 6, NSEXIT: 7,
		   CBEGIN: 8, CEND: 9, QSPIN: 10, TP: 11, CACHE: 12,
		   ATOMIC: 13, ATOMIC_OTHER: 14 };
	var QS = { SLOWPATH: 0, LOCK: 1, TRYLOCK: 2, TRYFAIL: 3, UNLOCK: 4 };
	var TP = { STEAL: 0, TOP_WAITER: 1, SPIN_START: 2, SPIN_STOP: 3,
		   SLEEP: 4, HANDOFF_REQUEST: 5, HANDOFF_GRANT: 6,
		   ACQUIRE: 7, UNLOCK: 8, TIMEOUT: 12 };
	var STATES = ['new', 'user', 'kernel', 'spin', 'sleep', 'runnable', 'dead'];
	var STATE_TEXT = {
		'new': 'not started', user: 'running user', kernel: 'running kernel',
		spin: 'spinning on a qspinlock', sleep: 'sleeping',
		runnable: 'runnable', dead: 'dead'
	};
	var STATE_COLOUR = {
		'new': '#eeeeee', user: '#4caf50', kernel: '#2196f3',
		spin: '#ff9800', sleep: '#bdbdbd', runnable: '#f44336',
		dead: '#424242'
	};

	var meta, first, count, lockName, taskIds, taskName, fops;
	var keyframes = [], laneTask = {}, laneCpu = [], series;
	var cursor = 0, view0 = 0, view1 = 1, T0 = 0, T1 = 1;
	var callEnd;			/* futex_enter index -> its exit's ret */

	function $(id) { return document.getElementById(id); }
	/* the events' fields as columns: f(e, i) is field i of event e */
	var COL = [], NARR = [], WHERE, WORDS, NEV = 0;
	var lwName = {};		/* address index -> the lock's field */
	function f(e, i) { return COL[i][e]; }
	function columns(E) {
		var i, j, e, v, n = E.length;
		NEV = n;
		/* field 12: a task's stack (meta.where) or, for the unlock of
		 * a bucket's lock, its waiters (meta.chains): index + 1 */
		WHERE = new Int32Array(n);
		WORDS = new Int32Array(n);	/* field 13: meta.wvals index + 1 */
		for (j = 0; j < 11; j++)
			COL.push(j === 0 || j === 5 || j === 6 || j === 8 || j === 10 ?
				 new Float64Array(n) : new Int32Array(n));
		for (i = 0; i < n; i++) {
			e = E[i];
			for (j = 0; j < 11 && j < e.length; j++) {
				v = e[j];
				COL[j][i] = +v;
			}
			/* an index into meta.says (-1: none), or the text */
			if (e.length > 11 && (typeof e[11] === 'string' || e[11] >= 0))
				NARR[i] = typeof e[11] === 'string' ? e[11] :
					  meta.says[e[11]];
			if (e.length > 12)
				WHERE[i] = e[12];
			if (e.length > 13)
				WORDS[i] = e[13];
		}
	}
	function el(tag, attrs, text) {
		var n = document.createElement(tag);
		for (var k in attrs)
			n.setAttribute(k, attrs[k]);
		if (text !== undefined)
			n.textContent = text;
		return n;
	}
	function hex(v) { return '0x' + (v >>> 0).toString(16); }
	function comm(tid) {
		if (!tid)
			return '<idle>';
		return (taskName[tid] || '?') + ' (' + tid + ')';
	}
	function addrText(i) {
		var a = meta.addrs[i] || ['0x0', ''];
		return a[1] ? a[1] + ' ' + a[0] : a[0];
	}
	function fop(op) { return fops[op] || { name: hex(op), waits: 0, cmd: op }; }
	function nsText(ps) {
		var ns = Math.floor(ps / 1000);
		return (ns / 1000).toFixed(3) + ' us';
	}
	function tpl(w) {
		var tail = w >>> 16, p = (w >>> 8) & 0xff, l = w & 0xff;
		if (!tail)
			return '(0,' + p + ',' + l + ')';
		var c = 'c' + ((tail >>> 2) - 1) + ((tail & 3) ? '.' + (tail & 3) : '');
		return '(' + c + ',' + p + ',' + l + ')';
	}

	/* ---- the state ------------------------------------------------------- */

	function newState() {
		return { tasks: {}, cpus: [], words: {}, locks: {}, bucketOf: {},
			 waiters: {}, tptop: {}, nwait: 0, calls: 0 };
	}
	function task(S, tid) {
		var t = S.tasks[tid];
		if (!t)
			t = S.tasks[tid] = { cpu: -1, started: false, sleeping: false,
					     dead: false, sys: null, spin: 0,
					     tpspin: 0, last: null, where: 0 };
		return t;
	}
	function clone(S) {
		var C = { tasks: {}, cpus: S.cpus.slice(), words: {}, locks: {},
			  bucketOf: {}, waiters: {}, tptop: {}, nwait: S.nwait,
			  calls: S.calls };
		var k;
		for (k in S.tasks) {
			var t = S.tasks[k];
			C.tasks[k] = { cpu: t.cpu, started: t.started,
				       sleeping: t.sleeping, dead: t.dead,
				       sys: t.sys, spin: t.spin, tpspin: t.tpspin,
				       last: t.last, where: t.where };
		}
		for (k in S.words)
			C.words[k] = S.words[k];
		for (k in S.locks) {
			var l = S.locks[k];
			C.locks[k] = { word: l.word, holder: l.holder,
				       queue: l.queue.slice() };
		}
		for (k in S.bucketOf)
			C.bucketOf[k] = S.bucketOf[k];
		for (k in S.tptop)
			C.tptop[k] = S.tptop[k];
		for (k in S.waiters)
			C.waiters[k] = S.waiters[k];	/* never changed in place */
		return C;
	}
	function stateOf(t) {
		if (t.dead)
			return 'dead';
		if (t.cpu >= 0)
			return t.spin ? 'spin' : t.sys ? 'kernel' : 'user';
		if (t.sleeping)
			return 'sleep';
		return t.started ? 'runnable' : 'new';
	}
	function lock(S, a) {
		var l = S.locks[a];
		if (!l)
			l = S.locks[a] = { word: 0, holder: 0, queue: [] };
		return l;
	}
	function isBucket(a) {
		return /^futex_hash_bucket\[/.test((meta.addrs[a] || ['', ''])[1]);
	}
	function offCpu(S, tid) {
		var t = task(S, tid);
		t.cpu = -1;
		return t;
	}
	function remove(a, v) {
		var i = a.indexOf(v);
		if (i >= 0)
			a.splice(i, 1);
	}

	/* The waiters of a bucket are the kernel's: at each unlock of its
	 * lock the writer read the bucket's plist (hb->chain), head first;
	 * a list it could not keep is null ("not recorded"). */
	function qspin(S, e, i) {
		var tid = f(e, 3), a = f(e, 7), op = f(e, 4), l = lock(S, a);
		var t = tid ? task(S, tid) : null;
		if (op === QS.SLOWPATH) {
			l.word = f(e, 5);
			if (t)
				t.spin = a;
			if (tid && l.queue.indexOf(tid) < 0)
				l.queue.push(tid);
			return;
		}
		if (op === QS.TRYFAIL) {
			l.word = f(e, 5);
			return;
		}
		l.word = f(e, 6);
		if (op === QS.LOCK || op === QS.TRYLOCK) {
			l.holder = tid;
			remove(l.queue, tid);
			if (t)
				t.spin = 0;
			if (t && t.sys && t.sys.addr && t.sys.futex)
				S.bucketOf[t.sys.addr] = a;
			return;
		}
		l.holder = 0;		/* unlock */
		if (WHERE[i] || isBucket(a))
			S.waiters[a] = WHERE[i] ? meta.chains[WHERE[i] - 1] : null;
	}

	function apply(S, e, i) {
		var type = f(e, 1), tid = f(e, 3), t = null, n;
		if (WORDS[i]) {		/* the built-in lock's words changed */
			var v = meta.wvals[WORDS[i] - 1];
			meta.lockwords.forEach(function (lw, k) {
				if (lw[0])
					S.words[lw[0]] = v[k];
			});
		}
		if (tid && type !== EV.SWITCH) {
			t = task(S, tid);
			t.started = true;
			t.cpu = f(e, 2);	/* it runs: the event is its own */
			t.sleeping = false;
		}
		switch (type) {
		case EV.SWITCH:
			if (tid) {
				t = offCpu(S, tid);
				n = f(e, 4);
				t.sleeping = n === 83;		/* 'S' */
				t.dead = n === 88;		/* 'X' */
				t.spin = 0;
				t.where = WHERE[i];	/* its stack as it left */
			}
			n = f(e, 9);
			S.cpus[f(e, 2)] = n;
			if (n) {
				t = task(S, n);
				t.cpu = f(e, 2);
				t.started = true;
				t.sleeping = false;
				t.where = 0;
			}
			break;
		case EV.WAKEUP:
		case EV.WAKEUP_NEW:
			n = task(S, f(e, 9));
			n.started = true;
			n.sleeping = false;
			break;
		case EV.FENTER:
			n = fop(f(e, 5));
			t = t || task(S, 0);
			t.sys = { futex: 1, op: f(e, 5), name: n.name, waits: n.waits,
				  addr: f(e, 7), val: f(e, 6), ret: callEnd[i],
				  at: i, where: WHERE[i] };
			t.last = t.sys;
			S.calls++;
			if (n.waits)
				S.nwait++;
			if (f(e, 7))
				S.words[f(e, 7)] = f(e, 10);
			break;
		case EV.FEXIT:
			if (t && t.sys && t.sys.futex && t.sys.waits)
				S.nwait--;
			if (t) {
				t.last = Object.assign({}, t.last || {}, { ret: f(e, 8) });
				t.sys = null;
				t.tpspin = 0;
			}
			if (f(e, 7))
				S.words[f(e, 7)] = f(e, 10);
			break;
		case EV.NSENTER:
			if (t)
				t.sys = { futex: 0, name: 'nanosleep', waits: 0, addr: 0,
					  where: WHERE[i] };
			break;
		case EV.NSEXIT:
			if (t)
				t.sys = null;
			break;
		case EV.QSPIN:
			qspin(S, e, i);
			break;
		case EV.TP:
			n = f(e, 4);
			if (t && n === TP.SPIN_START)
				t.tpspin = f(e, 7);
			else if (t && (n === TP.SPIN_STOP || n === TP.SLEEP ||
				       n === TP.ACQUIRE))
				t.tpspin = 0;
			/* the top waiter: it holds the futex_state's mutex from
			 * its top-waiter event to its FUTEX_LOCK's end */
			if (n === TP.TOP_WAITER)
				S.tptop[f(e, 7)] = tid;
			else if ((n === TP.ACQUIRE || n === TP.TIMEOUT) &&
				 S.tptop[f(e, 7)] === tid)
				delete S.tptop[f(e, 7)];
			break;
		case EV.ATOMIC:
			if (f(e, 7))
				S.words[f(e, 7)] = f(e, 5);
			break;
		}
	}

	/* ---- the words, decoded ------------------------------------------------ */

	/* A built-in lock's word by its glibc name (workloads/ulock/). */
	function decodeField(name, w) {
		w = w >>> 0;
		switch (name) {
		case '__readers':
			return (w >>> 3) + ' reader(s), ' +
			       (w & 1 ? 'write phase (WP)' : 'read phase') +
			       (w & 2 ? ', a primary writer (WL)' : '') +
			       (w & 4 ? ', readers wait (RW)' : '');
		case '__writers':
			return (w & 0x7fffffff) + ' waiting writer(s)' +
			       (w & 0x80000000 ? ', WRHANDOVER (the token is free)' : '');
		case '__wrphase_futex':
			return (w & 1 ? 'write phase' : 'read phase') +
			       (w & 2 ? ', FUTEX_USED (may sleep)' : '');
		case '__writers_futex':
			return (w & 1 ? 'a primary writer' : 'no primary writer') +
			       (w & 2 ? ', FUTEX_USED (may sleep)' : '');
		case '__cur_writer':
			return w ? 'write owner ' + comm(w) : 'no write owner';
		case '__spins':
			return 'spin estimate ' + w + ' (glibc __spins)';
		}
		return decode(w);
	}

	function decode(w) {
		var kind = lockName;
		w = w >>> 0;
		if (/^rw-tp/.test(kind) || /^tp/.test(kind)) {
			if (w & 0x20000000)
				return 'reader-owned: ' + (w & 0xffffff) + ' reader(s)' +
				       (w & 0x80000000 ? ' + FUTEX_WAITERS' : '');
			if (!(w & 0x1fffffff))
				return w & 0x80000000 ? 'unlocked, FUTEX_WAITERS' : 'unlocked';
			return 'owner ' + comm(w & 0x1fffffff) +
			       (w & 0x80000000 ? ' + FUTEX_WAITERS' : '') +
			       (w & 0x40000000 ? ' + OWNER_DIED' : '');
		}
		if (/^pi/.test(kind)) {
			if (!(w & 0x3fffffff))
				return 'unlocked';
			return 'owner ' + comm(w & 0x3fffffff) +
			       (w & 0x80000000 ? ' + FUTEX_WAITERS' : '') +
			       (w & 0x40000000 ? ' + OWNER_DIED' : '');
		}
		if (/^rw-/.test(kind))
			return 'phase/writer bit ' + (w & 1) +
			       (w & 2 ? ', FUTEX_USED (may sleep)' : '');
		if (w === 0)
			return 'unlocked';
		if (w === 1)
			return 'locked';
		if (w === 2)
			return 'locked, waiters';
		return hex(w);
	}

	/* ---- the first pass: keyframes, lanes, series ------------------------ */

	function matchCalls() {
		var open = {};
		callEnd = new Float64Array(NEV);
		for (var i = 0; i < NEV; i++) {
			var e = (i), type = f(e, 1);
			if (type === EV.FENTER)
				open[f(e, 3)] = i;
			else if (type === EV.FEXIT && open[f(e, 3)] !== undefined) {
				callEnd[open[f(e, 3)]] = f(e, 8);
				delete open[f(e, 3)];
			}
		}
	}

	function lanePush(lane, ts, v) {
		var n = lane.length;
		if (n && lane[n - 1][1] === v)
			return;
		if (n && lane[n - 1][0] === ts)
			lane[n - 1][1] = v;
		else
			lane.push([ts, v]);
	}

	/* The lanes of what event @e changed: its task, the task it wakes
	 * or switches to, its CPU. */
	function touch(S, e, ts) {
		var type = f(e, 1), tids = [f(e, 3)];
		if (type <= EV.WAKEUP_NEW)
			tids.push(f(e, 9));
		tids.forEach(function (tid) {
			if (tid && S.tasks[tid])
				lanePush(laneTask[tid] = laneTask[tid] || [], ts,
					 stateOf(S.tasks[tid]));
		});
		if (type === EV.SWITCH)
			lanePush(laneCpu[f(e, 2)] = laneCpu[f(e, 2)] || [], ts,
				 S.cpus[f(e, 2)] || 0);
	}

	function firstPass() {
		var S = newState(), i, k;
		var nbins = 200, span, bins = [], wpts = [];
		matchCalls();
		for (i = 0; i < first; i++)
			apply(S, (i), i);
		T0 = count ? f((first), 0) : 0;
		T1 = count ? f((NEV - 1), 0) : 1;
		if (T1 <= T0)
			T1 = T0 + 1;
		span = (T1 - T0) / nbins;
		for (k = 0; k < nbins; k++)
			bins.push(0);
		for (i = 0; i <= count; i++) {
			if (i % KEYF === 0)
				keyframes.push(clone(S));
			var ts = i ? f((first + i - 1), 0) : T0;
			if (i === 0) {
				for (k in S.tasks)
					lanePush(laneTask[k] = [], ts, stateOf(S.tasks[k]));
				for (k = 0; k < meta.cpus; k++)
					lanePush(laneCpu[k] = [], ts, S.cpus[k] || 0);
			} else {
				touch(S, first + i - 1, ts);
			}
			if (!wpts.length || wpts[wpts.length - 1][1] !== S.nwait)
				wpts.push([ts, S.nwait]);
			if (i === count)
				break;
			var e = (first + i);
			apply(S, e, first + i);
			if (f(e, 1) === EV.FENTER)
				bins[Math.min(nbins - 1,
					      Math.floor((f(e, 0) - T0) / span))]++;
		}
		series = { bins: bins, span: span, waiters: wpts };
		taskIds = Object.keys(S.tasks).map(Number).filter(Boolean)
			.sort(function (a, b) { return a - b; });
	}

	function stateAt(n) {
		var k = Math.floor(n / KEYF), S = clone(keyframes[k]);
		for (var i = k * KEYF; i < n; i++)
			apply(S, (first + i), first + i);
		return S;
	}

	/* ---- jumps -------------------------------------------------------------- */

	var JUMPS = {
		futex: function (e) { return f(e, 1) === EV.FENTER; },
		steal: function (e) { return f(e, 1) === EV.TP && f(e, 4) === TP.STEAL; },
		handoff: function (e) {
			return f(e, 1) === EV.TP && f(e, 4) === TP.HANDOFF_GRANT;
		},
		wakeup: function (e) { return f(e, 1) === EV.WAKEUP; },
		preempt: function (e) {
			return f(e, 1) === EV.SWITCH && f(e, 3) && f(e, 4) === 43;
		}
	};
	function jump(kind, dir) {
		var test = JUMPS[kind];
		for (var n = cursor + dir; n >= 1 && n <= count; n += dir)
			if (test((first + n - 1)))
				return go(n);
		status('no ' + (dir > 0 ? 'next ' : 'previous ') + kind + ' event');
	}
	function status(s) { $('status').textContent = s; }

	/* ---- the panel --------------------------------------------------------- */

	function evText(e) {
		var type = f(e, 1), name = meta.events[type] || String(type);
		var s = name + ': ';
		switch (type) {
		case EV.SWITCH:
			return s + comm(f(e, 3)) + ' (' + String.fromCharCode(f(e, 4) || 82) +
			       ') ==> ' + comm(f(e, 9));
		case EV.WAKING: case EV.WAKEUP: case EV.WAKEUP_NEW:
			return s + comm(f(e, 9)) + ' target_cpu=' + f(e, 5);
		case EV.FENTER:
			return s + addrText(f(e, 7)) + ' op=' + fop(f(e, 5)).name +
			       ' val=' + f(e, 6) + ' (word ' + f(e, 10) + ')';
		case EV.FEXIT:
			return s + addrText(f(e, 7)) + ' op=' + fop(f(e, 5)).name +
			       ' ret=' + f(e, 8) + ' (word ' + f(e, 10) + ')';
		case EV.QSPIN:
			return s + addrText(f(e, 7)) + ' op=' + meta.qsops[f(e, 4)] + ' ' +
			       tpl(f(e, 5)) + (f(e, 4) === QS.SLOWPATH ? '' :
			       ' -> ' + tpl(f(e, 6)));
		case EV.TP:
			return s + addrText(f(e, 7)) + ' op=' + meta.tpops[f(e, 4)] +
			       ' word=' + hex(f(e, 5)) + ' arg=' + f(e, 8);
		case EV.ATOMIC: case EV.ATOMIC_OTHER:
			return s + addrText(f(e, 7)) + ' ' + f(e, 8) + ' -> ' + f(e, 5);
		}
		return s + addrText(f(e, 7)) + ' arg=' + f(e, 8);
	}

	function row(tb, cells, attrs) {
		var tr = el('tr', attrs || {});
		cells.forEach(function (c) {
			tr.appendChild(c instanceof Node ? c : el('td', {}, String(c)));
		});
		tb.appendChild(tr);
		return tr;
	}
	function callText(c) {
		if (!c)
			return '';
		var s = c.name + (c.addr ? ' on ' + addrText(c.addr) : '');
		if (c.futex && c.waits)
			s += ' val=' + c.val;
		return s;
	}

	/* Where a task is: the stack it left its CPU with (asleep, preempted),
	 * else that of the call it is in; innermost frame first. */
	function whereOf(t) {
		var w = t.cpu < 0 && t.where ? t.where : t.sys ? t.sys.where : 0;
		var st = w && meta.where ? meta.where[w - 1] : null;
		return st ? st.map(function (k) { return meta.frames[k]; }) : null;
	}
	function frameText(fr) { return fr[0] + (fr[1] ? ' (' + fr[1] + ')' : ''); }
	/* the innermost frame, and the innermost of the program's (or the
	 * built-in workload's) own code: not the kernel's, the simulator's,
	 * the lock library's nor the pthread layer's */
	function whereCell(fr) {
		var td = el('td', {}, '');
		if (!fr || !fr.length)
			return td;
		var k, user = -1;
		for (k = 1; k < fr.length; k++)
			if (!/^(kernel|include|lib|arch|mm|sim|sched|futex|workloads\/ulock|workloads\/libsim)\//
			    .test(fr[k][1])) {
				user = k;
				break;
			}
		var all = fr.map(frameText);
		td.setAttribute('title', all.join('\n'));
		td.setAttribute('data-where', all.join(' <- '));
		td.appendChild(el('span', { 'class': 'fn' }, all[0]));
		if (user > 0) {
			td.appendChild(document.createTextNode(user > 1 ? ' \u2190 \u2026 \u2190 ' :
							       ' \u2190 '));
			td.appendChild(el('span', { 'class': 'fn' }, all[user]));
		}
		return td;
	}

	function showTasks(S) {
		var tb = $('tasks');
		tb.textContent = '';
		taskIds.forEach(function (tid) {
			var t = S.tasks[tid] || task(newState(), tid), st = stateOf(t);
			var text = STATE_TEXT[st];
			if (st === 'sleep' && t.sys)
				text = 'sleeping in ' + t.sys.name;
			var last = t.last ? callText(t.last) +
				(t.last.ret !== undefined && !t.sys ? ' = ' + t.last.ret : '') : '';
			var spin = t.spin ? 'qspinlock ' + addrText(t.spin) :
				t.tpspin ? 'owner of ' + addrText(t.tpspin) : '';
			var sw = el('td', {}, '');
			sw.appendChild(el('span', { 'class': 'sw', style: 'background:' +
				STATE_COLOUR[st] }));
			sw.appendChild(document.createTextNode(text));
			row(tb, [comm(tid), sw, t.cpu >= 0 ? t.cpu : '-',
				 t.sys ? callText(t.sys) : '', whereCell(whereOf(t)),
				 last, spin],
			    { 'data-tid': tid, 'data-state': st,
			      'data-cpu': t.cpu });
		});
	}

	function showWords(S) {
		var tb = $('words'), k;
		tb.textContent = '';
		Object.keys(S.words).map(Number).sort(function (a, b) {
			return a - b;
		}).forEach(function (a) {
			var w = S.words[a] >>> 0, n = 0;
			for (k in S.tasks)
				if (S.tasks[k].sys && S.tasks[k].sys.addr === a &&
				    S.tasks[k].sys.waits)
					n++;
			row(tb, [(lwName[a] ? lwName[a] + ' ' : '') + addrText(a),
				 w + ' (' + hex(w) + ')',
				 (lwName[a] ? decodeField(lwName[a], w) : decode(w)) +
				 (S.tptop[a] ? '; top waiter ' + comm(S.tptop[a]) : ''), n],
			    { 'data-addr': meta.addrs[a][0], 'data-value': w });
		});
	}

	function showBuckets(S) {
		var tb = $('buckets');
		tb.textContent = '';
		Object.keys(S.locks).map(Number).sort(function (a, b) {
			return a - b;
		}).forEach(function (a) {
			var l = S.locks[a], words = [], k;
			for (k in S.bucketOf)
				if (S.bucketOf[k] === a)
					words.push(addrText(+k));
			var wq = S.waiters[a], wl;
			if (wq === null)
				wl = '(not recorded: the page\'s table of lists is full)';
			else
				wl = (wq || []).map(function (tid) {
					return tid < 0 ? '... ' + -tid + ' more' :
					       tid ? comm(tid) : '(no task yet)';
				}).join(' -> ') || '-';
			row(tb, [addrText(a), tpl(l.word), l.holder ? comm(l.holder) : '-',
				 l.queue.map(comm).join(' -> ') || '-',
				 wl, words.join(', ')],
			    { 'data-lock': meta.addrs[a][0], 'data-word': l.word,
			      'data-tpl': tpl(l.word),
			      'data-waiters': (wq || []).join(',') });
		});
	}

	function show() {
		var S = stateAt(cursor), e = cursor ? (first + cursor - 1) : null;
		document.body.setAttribute('data-event', cursor);
		$('evno').textContent = 'event ' + cursor + ' of ' + count;
		var ev = $('event');
		if (e !== null) {
			ev.setAttribute('data-type', meta.events[f(e, 1)]);
			ev.setAttribute('data-ts', f(e, 0));
			ev.setAttribute('data-tid', f(e, 3));
			$('evhead').textContent = nsText(f(e, 0)) + '  ' + comm(f(e, 3)) +
				' [cpu ' + f(e, 2) + ']  ' + evText(e);
			$('narr').textContent = NARR[e] || '';
		} else {
			ev.setAttribute('data-type', 'start');
			$('evhead').textContent = 'the state when the trace window opens';
			$('narr').textContent = '';
		}
		$('fail').textContent = meta.fail && cursor === count ?
			'failure: ' + meta.fail : '';
		showTasks(S);
		showWords(S);
		showBuckets(S);
		drawTimeline();
		drawCharts();
	}

	/* ---- the cursor ----------------------------------------------------------- */

	function go(n) {
		n = Math.max(0, Math.min(count, n | 0));
		cursor = n;
		var h = '#event=' + n;
		if (location.hash !== h)
			history.replaceState(null, '', h);
		var t = curTime();
		if (t < view0 || t > view1) {
			var w = view1 - view0;
			view0 = t - w / 2;
			view1 = t + w / 2;
		}
		show();
	}
	function curTime() { return cursor ? f((first + cursor - 1), 0) : T0; }
	function fromHash() {
		var m = /event=(\d+)/.exec(location.hash);
		return m ? +m[1] : 0;
	}

	/* ---- the timeline ------------------------------------------------------ */

	var LANE = 16, LABEL = 130;
	function colourOfTask(tid) {
		return 'hsl(' + ((tid * 67) % 360) + ',60%,55%)';
	}
	function lanes() {
		var out = [];
		for (var c = 0; c < meta.cpus; c++)
			out.push({ name: 'CPU ' + c, lane: laneCpu[c] || [], cpu: true });
		taskIds.forEach(function (tid) {
			out.push({ name: comm(tid), lane: laneTask[tid] || [], cpu: false });
		});
		return out;
	}
	function firstSeg(lane, t) {	/* last segment starting at or before t */
		var lo = 0, hi = lane.length - 1;
		while (lo < hi) {
			var mid = (lo + hi + 1) >> 1;
			if (lane[mid][0] <= t)
				lo = mid;
			else
				hi = mid - 1;
		}
		return lo;
	}
	function drawTimeline() {
		var cv = $('timeline'), L = lanes();
		var W = cv.clientWidth || 1200, H = L.length * LANE + 20;
		cv.width = W;
		cv.height = H;
		var g = cv.getContext('2d'), pw = W - LABEL;
		var x = function (t) { return LABEL + (t - view0) / (view1 - view0) * pw; };
		g.font = '11px sans-serif';
		g.fillStyle = '#fff';
		g.fillRect(0, 0, W, H);
		L.forEach(function (ln, r) {
			var y = r * LANE, lane = ln.lane, lastPx = -1;
			g.fillStyle = '#333';
			g.fillText(ln.name, 4, y + 12);
			if (!lane.length)
				return;
			for (var i = firstSeg(lane, view0); i < lane.length; i++) {
				var t0 = lane[i][0], v = lane[i][1];
				if (t0 > view1)
					break;
				var t1 = i + 1 < lane.length ? lane[i + 1][0] : T1;
				var x0 = Math.max(LABEL, x(t0)), x1 = Math.min(W, x(t1));
				if (ln.cpu ? !v : v === 'new')
					continue;
				/* one segment per pixel column: the one that ends it */
				if (Math.floor(x1) <= lastPx)
					continue;
				lastPx = Math.floor(x1);
				g.fillStyle = ln.cpu ? colourOfTask(v) : STATE_COLOUR[v];
				g.fillRect(x0, y + 2, Math.max(1, x1 - x0), LANE - 4);
				if (ln.cpu && x1 - x0 > 60) {
					g.fillStyle = '#fff';
					g.fillText(taskName[v] || String(v), x0 + 3, y + 12);
				}
			}
		});
		g.fillStyle = '#666';
		g.fillText(nsText(view0), LABEL, H - 4);
		var r = nsText(view1);
		g.fillText(r, W - g.measureText(r).width - 4, H - 4);
		var cx = x(curTime());
		if (cx >= LABEL && cx <= W) {
			g.fillStyle = '#d00';
			g.fillRect(cx, 0, 1.5, H - 16);
		}
	}
	function zoom(factor, at) {
		var t = at === undefined ? curTime() : at;
		var w = (view1 - view0) * factor;
		w = Math.max(w, 1000);		/* 1 ns at least */
		w = Math.min(w, (T1 - T0) * 1.05);
		var frac = (t - view0) / (view1 - view0);
		view0 = t - frac * w;
		view1 = view0 + w;
		drawTimeline();
		drawCharts();
	}
	function pan(frac) {
		var d = (view1 - view0) * frac;
		view0 += d;
		view1 += d;
		drawTimeline();
		drawCharts();
	}
	function timeAtX(px) {
		var cv = $('timeline'), pw = (cv.clientWidth || 1200) - LABEL;
		return view0 + (px - LABEL) / pw * (view1 - view0);
	}
	function eventAt(t) {		/* the last event at or before t */
		var lo = 0, hi = count;
		while (lo < hi) {
			var mid = (lo + hi + 1) >> 1;
			if (f((first + mid - 1), 0) <= t)
				lo = mid;
			else
				hi = mid - 1;
		}
		return lo;
	}
	function timelineInput() {
		var cv = $('timeline'), drag = null;
		cv.addEventListener('wheel', function (ev) {
			ev.preventDefault();
			zoom(ev.deltaY > 0 ? 1.25 : 0.8, timeAtX(ev.offsetX));
		});
		cv.addEventListener('mousedown', function (ev) {
			drag = { x: ev.offsetX, v0: view0, v1: view1, moved: false };
		});
		cv.addEventListener('mousemove', function (ev) {
			if (!drag)
				return;
			var pw = (cv.clientWidth || 1200) - LABEL;
			var d = (ev.offsetX - drag.x) / pw * (drag.v1 - drag.v0);
			if (Math.abs(ev.offsetX - drag.x) > 3)
				drag.moved = true;
			view0 = drag.v0 - d;
			view1 = drag.v1 - d;
			drawTimeline();
		});
		window.addEventListener('mouseup', function (ev) {
			if (drag && !drag.moved && ev.target === cv && ev.offsetX > LABEL)
				go(eventAt(timeAtX(ev.offsetX)));
			drag = null;
		});
	}

	/* ---- the charts --------------------------------------------------------- */

	var SVGNS = 'http://www.w3.org/2000/svg';
	function svg(tag, attrs) {
		var n = document.createElementNS(SVGNS, tag);
		for (var k in attrs)
			n.setAttribute(k, attrs[k]);
		return n;
	}
	var marks = [];			/* [view rect, cursor rect] per chart */
	function chart(id, title, pts, max, bars) {
		var box = $(id), W = 560, H = 90, s;
		box.textContent = '';
		s = svg('svg', { width: W, height: H, viewBox: '0 0 ' + W + ' ' + H });
		var x = function (t) { return (t - T0) / (T1 - T0) * (W - 10) + 5; };
		var y = function (v) { return H - 15 - v / (max || 1) * (H - 30); };
		var t = svg('text', { x: 5, y: 11, 'font-size': 11 });
		t.textContent = title + ' (max ' + max + ')';
		s.appendChild(t);
		if (bars) {
			pts.forEach(function (p) {
				s.appendChild(svg('rect', { x: x(p[0]), y: y(p[1]),
					width: Math.max(1, x(p[0] + series.span) - x(p[0]) - 0.5),
					height: H - 15 - y(p[1]), fill: '#2196f3' }));
			});
		} else {
			var d = '', last = null;
			pts.forEach(function (p) {
				if (last !== null)
					d += ' L' + x(p[0]).toFixed(1) + ' ' + y(last).toFixed(1);
				d += (d ? ' L' : 'M') + x(p[0]).toFixed(1) + ' ' + y(p[1]).toFixed(1);
				last = p[1];
			});
			s.appendChild(svg('path', { d: d, fill: 'none', stroke: '#f44336' }));
		}
		var vr = svg('rect', { y: 14, height: H - 29, fill: 'rgba(0,0,0,0.06)' });
		var cr = svg('rect', { y: 14, width: 1.5, height: H - 29, fill: '#d00' });
		s.appendChild(vr);
		s.appendChild(cr);
		marks.push([vr, cr, x]);
		s.addEventListener('click', function (ev) {
			var r = s.getBoundingClientRect();
			go(eventAt(T0 + (ev.clientX - r.left - 5) / (W - 10) * (T1 - T0)));
		});
		box.appendChild(s);
	}
	var waitPts = null;
	function drawCharts() {
		if (!waitPts)
			buildCharts();
		marks.forEach(function (m) {
			var x = m[2], x0 = Math.max(0, x(view0));
			m[0].setAttribute('x', x0);
			m[0].setAttribute('width', Math.max(1, Math.min(x(T1), x(view1)) - x0));
			m[1].setAttribute('x', x(curTime()));
		});
	}
	function buildCharts() {
		{		/* at most ~2000 points drawn */
			var w = series.waiters, step = Math.max(1, Math.floor(w.length / 2000));
			waitPts = [];
			for (var i = 0; i < w.length; i += step)
				waitPts.push(w[i]);
			if (w.length)
				waitPts.push(w[w.length - 1]);
		}
		var wmax = 0, bmax = 0;
		series.waiters.forEach(function (p) { wmax = Math.max(wmax, p[1]); });
		series.bins.forEach(function (b) { bmax = Math.max(bmax, b); });
		chart('chart-waiters', 'tasks in a waiting futex call', waitPts, wmax, false);
		chart('chart-calls', 'futex calls per ' + nsText(series.span), series.bins.map(
			function (b, i) { return [T0 + i * series.span, b]; }), bmax, true);
	}

	/* ---- keys ------------------------------------------------------------ */

	var KEYS = [
		['Right, k', 'next event'], ['Left, j', 'previous event'],
		['PageDown, PageUp', '100 events forward, back'],
		['Home, End', 'first, last event'],
		['f, F', 'next, previous futex call (futex_enter)'],
		['s, S', 'next, previous steal (tp op steal)'],
		['h, H', 'next, previous handoff (tp op handoff-grant)'],
		['w, W', 'next, previous wakeup (sched_wakeup)'],
		['p, P', 'next, previous preemption (sched_switch, prev state R+)'],
		['x', 'the failure: the last event of a failed run'],
		['+, -', 'zoom the timeline in, out (or the mouse wheel)'],
		['Shift+Right, Shift+Left', 'pan the timeline (or drag it; plain ' +
		 'arrows once the timeline has the focus: click it, Tab)'],
		['click', 'on the timeline or a chart: the cursor to that time'],
		['?', 'show or hide this list']
	];
	function onKey(ev) {
		if (ev.ctrlKey || ev.metaKey || ev.altKey)
			return;
		var k = ev.key, done = true;
		/* arrows pan with Shift, or while the timeline has the focus */
		var panning = ev.shiftKey || document.activeElement === $('timeline');
		if (panning && k === 'ArrowRight')
			pan(0.2);
		else if (panning && k === 'ArrowLeft')
			pan(-0.2);
		else if (k === 'ArrowRight' || k === 'k')
			go(cursor + 1);
		else if (k === 'ArrowLeft' || k === 'j')
			go(cursor - 1);
		else if (k === 'PageDown')
			go(cursor + 100);
		else if (k === 'PageUp')
			go(cursor - 100);
		else if (k === 'Home')
			go(0);
		else if (k === 'End' || k === 'x')
			k === 'x' && !meta.fail ? status('the run did not fail') : go(count);
		else if ('fshwp'.indexOf(k.toLowerCase()) >= 0 && k.length === 1)
			jump({ f: 'futex', s: 'steal', h: 'handoff', w: 'wakeup',
			       p: 'preempt' }[k.toLowerCase()], k === k.toLowerCase() ? 1 : -1);
		else if (k === '+' || k === '=')
			zoom(0.5);
		else if (k === '-')
			zoom(2);
		else if (k === '?')
			$('help').hidden = !$('help').hidden;
		else if (k === 'Escape' && document.activeElement)
			document.activeElement.blur();
		else
			done = false;
		if (done)
			ev.preventDefault();
	}

	/* ---- the page -------------------------------------------------------------- */

	function build() {
		var app = $('app');
		app.innerHTML =
			'<header><h1>futexsim view</h1><div id="title"></div>' +
			'<div id="note"></div></header>' +
			'<nav id="controls"></nav><div id="status"></div>' +
			'<section id="event"><div id="evno"></div><div id="evhead"></div>' +
			'<div id="narr"></div><div id="fail"></div></section>' +
			'<canvas id="timeline" tabindex="0"></canvas>' +
			'<div id="legend"></div>' +
			'<div class="charts"><div id="chart-waiters"></div>' +
			'<div id="chart-calls"></div></div>' +
			'<h2>Tasks</h2><table><thead><tr><th>task</th><th>state</th>' +
			'<th>cpu</th><th>in</th>' +
			'<th title="the stack it left its CPU with, or that of the call it is in; hover for all of it">where (function, file:line)</th>' +
			'<th>last futex call</th><th>spins on</th>' +
			'</tr></thead><tbody id="tasks"></tbody></table>' +
			'<h2>Lock and futex words</h2><table><thead><tr><th>word</th>' +
			'<th title="a built-in lock\'s words at the event; a program\'s at its last futex call or atomic">value</th>' +
			'<th>decoded (' + lockName + ')</th><th>tasks in a waiting call</th>' +
			'</tr></thead><tbody id="words"></tbody></table>' +
			'<h2>Hash buckets</h2><table><thead><tr><th>bucket lock</th>' +
			'<th>(t,p,l)</th><th>holder</th><th>spinning (slow path, in order)</th>' +
			'<th>waiters (plist order)</th><th>futex words</th></tr></thead>' +
			'<tbody id="buckets"></tbody></table>' +
			'<div id="slot"></div>' +
			'<div id="help" hidden><h2>Keys</h2><table id="keys"></table>' +
			'<p>#event=N in the address shows the state after event N: the ' +
			'Nth event line of the text trace (--trace=FILE.txt) of the same ' +
			'run.</p></div>';
		$('title').textContent = meta.title;
		$('note').textContent = meta.note;
		var nav = $('controls');
		[['|<', function () { go(0); }], ['<', function () { go(cursor - 1); }],
		 ['>', function () { go(cursor + 1); }], ['>|', function () { go(count); }]]
			.forEach(function (b) {
				var n = el('button', {}, b[0]);
				n.onclick = b[1];
				nav.appendChild(n);
			});
		['futex', 'steal', 'handoff', 'wakeup', 'preempt'].forEach(function (k) {
			var p = el('button', { title: 'previous ' + k }, '< ' + k);
			var n = el('button', { title: 'next ' + k }, k + ' >');
			p.onclick = function () { jump(k, -1); };
			n.onclick = function () { jump(k, 1); };
			nav.appendChild(p);
			nav.appendChild(n);
		});
		var fb = el('button', {}, 'failure');
		fb.disabled = !meta.fail;
		fb.onclick = function () { go(count); };
		nav.appendChild(fb);
		var hb = el('button', {}, '? keys');
		hb.onclick = function () { $('help').hidden = !$('help').hidden; };
		nav.appendChild(hb);
		KEYS.forEach(function (k) { row($('keys'), [k[0], k[1]]); });
		STATES.forEach(function (s) {
			var sp = el('span', { 'class': 'sw', style: 'background:' + STATE_COLOUR[s] });
			$('legend').appendChild(sp);
			$('legend').appendChild(document.createTextNode(STATE_TEXT[s] + '  '));
		});
		if (meta.svg)	/* the run's plot, without its XML declaration */
			$('slot').innerHTML = meta.svg.replace(/^<\?xml[^>]*>\s*/, '');
	}

	function main() {
		var t0 = performance.timing ? performance.timing.navigationStart -
			 performance.timeOrigin : 0;
		var tp = [performance.now()];
		meta = JSON.parse($('fs-meta').textContent);
		columns(JSON.parse($('fs-events').textContent));
		tp.push(performance.now());
		first = meta.first;
		count = NEV - first;
		var m = / lock=(\S+)/.exec(meta.title);
		lockName = m ? m[1] : '';
		meta.lockwords = meta.lockwords || [];
		meta.lockwords.forEach(function (lw) { lwName[lw[0]] = lw[1]; });
		taskName = {};
		meta.tasks.forEach(function (t) { taskName[t[0]] = t[1]; });
		fops = {};
		meta.fops.forEach(function (o) {
			/* the TP futex's FUTEX_LOCK and FUTEX_LOCK_SHARED wait too */
			fops[o[0]] = { name: o[1], cmd: o[3],
				       waits: o[2] || o[3] === 64 || o[3] === 66 };
		});
		firstPass();
		tp.push(performance.now());
		build();
		view0 = T0;
		view1 = T1;
		cursor = Math.min(count, fromHash());
		timelineInput();
		document.addEventListener('keydown', onKey);
		window.addEventListener('hashchange', function () {
			if (fromHash() !== cursor)
				go(fromHash());
		});
		window.addEventListener('resize', function () {
			drawTimeline();
		});
		show();
		tp.push(performance.now());
		document.body.setAttribute('data-phases', tp.map(function (t) {
			return Math.round(t);
		}).join(','));
		document.body.setAttribute('data-load-ms',
					   Math.round(performance.now() - t0));
		document.body.setAttribute('data-ready', '1');
		/* #event=N&steps=M: M steps forward, timed (make check's test) */
		var m2 = /steps=(\d+)/.exec(location.hash);
		if (m2) {
			var s0 = performance.now(), n0 = cursor;
			for (var i = 0; i < +m2[1]; i++)
				go(n0 + i + 1);
			document.body.setAttribute('data-step-ms',
				((performance.now() - s0) / +m2[1]).toFixed(2));
		}
	}
	main();
}());

/// The HTML report's page: markup, CSS and JavaScript, written here (no framework, no network).
///
/// The script reads the data (`ReportTrace.json`, an array) from `#lifetrace-data`. DOM hooks the browser check
/// (tools/check-report) relies on: `#summary-table tbody tr` (one per trace), `.lane` (one per controller shown,
/// `data-name`), `#finding-count`, `#finding-list li.finding`, `#lanes` (click: set the instant), `#state-text`
/// (the state at the instant), `#state-panel[data-t]` (the instant, ns after the first event),
/// `#filter-controller`, `#filter-rule`, `#zoom-in`, `#zoom-out`, `#zoom-reset`.
enum ReportPage {
    static func head(title: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title)</title>
        <style>
        \(style)
        </style>
        </head>
        <body>
        <header><h1>\(title)</h1><div id="meta"></div></header>
        <section id="summary"><table id="summary-table"><thead><tr><th>trace</th><th>events</th><th>span</th><th>controllers</th><th>errors</th><th>warnings</th><th>notes</th></tr></thead><tbody></tbody></table></section>
        <section id="trace-view">
        <h2 id="trace-title"></h2>
        <div id="toolbar">
        <label>controller <select id="filter-controller"></select></label>
        <label>rule <select id="filter-rule"></select></label>
        <button id="zoom-in" title="zoom in (wheel)">+</button><button id="zoom-out" title="zoom out (wheel)">−</button><button id="zoom-reset" title="whole trace">whole trace</button>
        <span class="legend"><i class="span appearing"></i>appearing <i class="span appeared"></i>appeared <i class="span disappearing"></i>disappearing <i class="span cancelled"></i>cancelled <i class="cb"></i>callback <i class="mark"></i>mark <i class="op"></i>operation <i class="flag error">▲</i>finding</span>
        </div>
        <div id="timeline"><div id="axis"></div><div id="lanes"></div><div id="cursor"></div></div>
        <div id="view-note"></div>
        <div id="bottom">
        <div id="findings"><h3>Findings (<span id="finding-count">0</span>)</h3><ol id="finding-list"></ol></div>
        <div id="state-panel"><h3>State at the instant <span id="state-instant"></span></h3><div id="state-note">Click the lanes or the axis to see the state at that instant.</div><pre id="state-text"></pre></div>
        </div>
        </section>

        """
    }

    static let style = #"""
        body { font: 13px/1.4 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 0; color: #1d2330; background: #fafbfc; }
        header { padding: 10px 16px; background: #1d2330; color: #fff; }
        header h1 { font-size: 17px; margin: 0 0 2px 0; }
        #meta { color: #c9d1e0; font-size: 12px; }
        section { padding: 8px 16px; }
        table { border-collapse: collapse; }
        #summary-table th, #summary-table td { padding: 3px 10px; border-bottom: 1px solid #dde2ea; text-align: right; }
        #summary-table th:first-child, #summary-table td:first-child { text-align: left; }
        #summary-table tbody tr { cursor: pointer; }
        #summary-table tbody tr.selected { background: #e3ecff; }
        #summary-table tbody tr:hover { background: #eef3fb; }
        h2 { font-size: 15px; margin: 4px 0; }
        h3 { font-size: 13px; margin: 4px 0; }
        #toolbar { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; margin-bottom: 6px; }
        #toolbar button { min-width: 28px; }
        .legend i { display: inline-block; width: 14px; height: 9px; margin: 0 3px 0 8px; vertical-align: middle; font-style: normal; font-size: 10px; line-height: 9px; }
        #timeline { position: relative; border: 1px solid #cfd6e0; background: #fff; user-select: none; }
        #axis { position: relative; height: 22px; margin-left: 230px; border-bottom: 1px solid #cfd6e0; cursor: crosshair; overflow: hidden; }
        .tick { position: absolute; top: 0; height: 22px; border-left: 1px solid #cfd6e0; padding-left: 3px; font-size: 11px; color: #556; white-space: nowrap; }
        #lanes { position: relative; cursor: crosshair; }
        .lane { display: flex; border-bottom: 1px solid #eef1f5; }
        .lane-label { width: 230px; box-sizing: border-box; flex: none; padding: 2px 4px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; border-right: 1px solid #cfd6e0; }
        .lane-track { position: relative; flex: auto; overflow: hidden; }
        .span { position: absolute; top: 3px; height: 12px; border-radius: 2px; font-size: 10px; line-height: 12px; color: #fff; overflow: hidden; white-space: nowrap; padding-left: 2px; box-sizing: border-box; }
        .appearing { background: #7aa7e8; } .appeared { background: #2f8f4e; } .disappearing { background: #d99a2b; }
        .cancelled { background: repeating-linear-gradient(45deg, #c0392b, #c0392b 4px, #e57368 4px, #e57368 8px) !important; }
        .cb { position: absolute; height: 6px; background: #6b5bd6; border-radius: 1px; min-width: 1px; }
        .legend .cb, .legend .mark, .legend .op, .legend .span { position: static; }
        .mark { position: absolute; top: 1px; width: 2px; height: 16px; background: #111; }
        .mark.critical { background: #d4145a; width: 3px; }
        .op { position: absolute; bottom: 1px; width: 7px; height: 7px; margin-left: -3px; background: #8a94a6; transform: rotate(45deg); }
        .flag { position: absolute; bottom: 0; margin-left: -6px; font-size: 14px; line-height: 14px; color: #c0392b; cursor: pointer; z-index: 4; text-shadow: 0 0 2px #fff, 0 0 2px #fff; }
        .flag.warning { color: #d98a00; } .flag.note { color: #2a6fdb; }
        .legend .flag { position: static; margin: 0 3px 0 8px; }
        .hl { outline: 2px solid #ff2d95; outline-offset: 1px; z-index: 5; }
        #cursor { position: absolute; top: 0; bottom: 0; width: 0; border-left: 1px dashed #d4145a; pointer-events: none; display: none; }
        #view-note { color: #667; font-size: 11px; margin: 3px 0; }
        #bottom { display: flex; gap: 16px; align-items: flex-start; margin-top: 8px; }
        #findings { flex: 1 1 50%; min-width: 300px; }
        #state-panel { flex: 1 1 50%; min-width: 300px; }
        #finding-list { padding-left: 20px; margin: 0; }
        .finding { margin-bottom: 6px; cursor: pointer; padding: 3px 5px; border-radius: 3px; }
        .finding:hover, .finding.selected { background: #eef3fb; }
        .finding .sev { font-weight: 600; text-transform: uppercase; font-size: 11px; }
        .finding .sev.error { color: #c0392b; } .finding .sev.warning { color: #b87400; } .finding .sev.note { color: #2a6fdb; }
        .finding .rule { font-family: ui-monospace, Menlo, Consolas, monospace; }
        .finding .fix { color: #445; font-size: 12px; margin-top: 2px; }
        .finding .when { color: #667; font-size: 12px; }
        #state-text { background: #fff; border: 1px solid #cfd6e0; padding: 6px 8px; font: 12px/1.35 ui-monospace, Menlo, Consolas, monospace; white-space: pre; overflow: auto; max-height: 480px; margin: 4px 0; }
        #state-note { color: #667; font-size: 12px; }
        """#

    static let script = #"""
        "use strict";
        const traces = JSON.parse(document.getElementById("lifetrace-data").textContent);
        const $ = (id) => document.getElementById(id);
        let current = 0, view = { t0: 0, t1: 1 }, cursorT = null, highlighted = new Set(), selectedFinding = -1;

        // The same text as TimeText.seconds: milliseconds rounded half up, three decimals, " s".
        function seconds(ns) {
          const millis = Math.floor(ns / 1e6) + (ns % 1e6 >= 5e5 ? 1 : 0);
          const fraction = millis % 1000;
          return Math.floor(millis / 1000) + "." + String(fraction).padStart(3, "0") + " s";
        }
        function tickLabel(ns, step) {
          if (step >= 1e6) return seconds(ns);
          if (step >= 1e3) return (ns / 1e6).toFixed(3) + " ms";
          return ns + " ns";
        }
        function el(tag, cls, text) {
          const e = document.createElement(tag);
          if (cls) e.className = cls;
          if (text !== undefined) e.textContent = text;
          return e;
        }
        function wallText(trace, ns) {
          if (trace.wall_start_ms === undefined) return "";
          return new Date(trace.wall_start_ms + ns / 1e6).toISOString().replace("T", " ").replace("Z", " UTC");
        }

        function severityCounts(trace) {
          const c = { error: 0, warning: 0, note: 0 };
          for (const f of trace.findings) c[f.severity] = (c[f.severity] || 0) + 1;
          return c;
        }

        function renderSummary() {
          const body = document.querySelector("#summary-table tbody");
          body.textContent = "";
          traces.forEach((trace, index) => {
            const row = el("tr");
            const c = severityCounts(trace);
            for (const v of [trace.path, trace.events, seconds(trace.end), trace.lanes.length, c.error, c.warning, c.note]) row.appendChild(el("td", "", String(v)));
            row.dataset.index = index;
            if (index === current) row.classList.add("selected");
            row.addEventListener("click", () => selectTrace(index));
            body.appendChild(row);
          });
          let events = 0, errors = 0, warnings = 0, notes = 0;
          for (const t of traces) { const c = severityCounts(t); events += t.events; errors += c.error; warnings += c.warning; notes += c.note; }
          $("meta").textContent = traces.length + (traces.length === 1 ? " trace, " : " traces, ") + events + " events: " + errors + " errors, " + warnings + " warnings, " + notes + " notes";
        }

        function selectTrace(index) {
          current = index;
          const trace = traces[index];
          view = { t0: 0, t1: Math.max(trace.end, 1) };
          cursorT = null; highlighted = new Set(); selectedFinding = -1;
          document.querySelectorAll("#summary-table tbody tr").forEach((r, i) => r.classList.toggle("selected", i === index));
          const anchor = trace.wall_start_ms === undefined ? "no wall-clock anchor" : "t = 0 s (the first event) is " + wallText(trace, 0) + " by the wall-clock anchor";
          $("trace-title").textContent = trace.path + " — " + trace.events + " events over " + seconds(trace.end) + "; clock " + trace.clock + "; " + anchor;
          const controllers = $("filter-controller");
          controllers.textContent = "";
          controllers.appendChild(new Option("all controllers", ""));
          for (const lane of trace.lanes) controllers.appendChild(new Option(lane.name, lane.name));
          const rules = $("filter-rule");
          rules.textContent = "";
          rules.appendChild(new Option("all rules", ""));
          for (const rule of [...new Set(trace.findings.map((f) => f.rule))].sort()) rules.appendChild(new Option(rule, rule));
          $("state-text").textContent = "";
          $("state-instant").textContent = "";
          $("state-note").textContent = "Click the lanes or the axis to see the state at that instant.";
          $("state-panel").removeAttribute("data-t");
          render();
        }

        function visibleLanes(trace) {
          const only = $("filter-controller").value;
          return trace.lanes.filter((lane) => !only || lane.name === only);
        }
        function visibleFindings(trace) {
          const only = $("filter-controller").value, rule = $("filter-rule").value;
          return trace.findings.map((f, i) => [f, i]).filter(([f]) => (!only || f.controller === only) && (!rule || f.rule === rule));
        }

        function trackWidth() {
          return Math.max(100, $("axis").clientWidth);
        }
        function x(t, width) { return (t - view.t0) / (view.t1 - view.t0) * width; }

        function renderAxis(width) {
          const axis = $("axis");
          axis.textContent = "";
          const span = view.t1 - view.t0;
          let step = Math.pow(10, Math.floor(Math.log10(Math.max(span / 8, 1))));
          for (const m of [1, 2, 5, 10]) { if (span / (step * m) <= 10) { step *= m; break; } }
          for (let t = Math.ceil(view.t0 / step) * step; t <= view.t1; t += step) {
            const tick = el("div", "tick", tickLabel(t, step));
            tick.style.left = x(t, width) + "px";
            axis.appendChild(tick);
          }
        }

        const MAX_PER_LANE = 4000, MAX_LANES = 300;
        // Each lane's extent, for leaving out the lanes with nothing in view.
        for (const trace of traces) {
          for (const lane of trace.lanes) {
            let first = Infinity, last = -Infinity;
            for (const list of [lane.spans, lane.callbacks]) for (const item of list) { if (item[0] < first) first = item[0]; if (item[1] > last) last = item[1]; }
            for (const list of [lane.marks, lane.ops]) for (const item of list) { if (item[0] < first) first = item[0]; if (item[0] > last) last = item[0]; }
            if (lane.end !== undefined) last = Math.max(last, lane.end);
            if (first === Infinity) { first = 0; last = trace.end; }
            lane.first = first; lane.last = last;
          }
        }
        function renderLanes(trace, width) {
          const lanes = $("lanes");
          lanes.textContent = "";
          const findings = visibleFindings(trace);
          const flagsByLane = new Map();
          for (const [f, i] of findings) {
            const key = f.controller || "";
            if (!flagsByLane.has(key)) flagsByLane.set(key, []);
            flagsByLane.get(key).push([f, i]);
          }
          let omitted = 0;
          const inView = (a, b) => b >= view.t0 && a <= view.t1;
          const addLane = (name, depth, build) => {
            const lane = el("div", "lane");
            lane.dataset.name = name;
            const label = el("div", "lane-label", name);
            label.style.paddingLeft = (4 + depth * 12) + "px";
            label.title = name;
            const track = el("div", "lane-track");
            lane.appendChild(label);
            lane.appendChild(track);
            build(track);
            lanes.appendChild(lane);
            return lane;
          };
          const addFlags = (track, key) => {
            for (const [f, i] of flagsByLane.get(key) || []) {
              if (!inView(f.t, f.t)) continue;
              const flag = el("div", "flag " + f.severity, "▲");
              flag.style.left = x(f.t, width) + "px";
              flag.title = f.severity + ": " + f.rule + " at " + seconds(f.t) + "\n" + f.message;
              flag.dataset.finding = i;
              flag.addEventListener("click", (e) => { e.stopPropagation(); jumpTo(i); });
              track.appendChild(flag);
            }
          };
          // The app's state, with findings about no controller.
          if (!$("filter-controller").value) {
            const app = addLane("app", 0, (track) => {
              track.style.height = "18px";
              for (const [a, b, name] of trace.app) {
                if (!inView(a, b)) continue;
                const s = el("div", "span appeared", name);
                s.style.background = name === "active" ? "#5b6b84" : "#9aa6b8";
                s.style.left = x(a, width) + "px";
                s.style.width = Math.max(1, x(b, width) - x(a, width)) + "px";
                s.title = "app " + name + " from " + seconds(a) + " to " + seconds(b);
                track.appendChild(s);
              }
              addFlags(track, "");
            });
            app.classList.add("app-lane");
          }
          // Lanes with nothing in view are left out, and at most MAX_LANES are drawn (zoom in or filter for the rest).
          const candidates = visibleLanes(trace).filter((lane) => inView(lane.first, lane.last));
          const hiddenLanes = Math.max(0, candidates.length - MAX_LANES);
          for (const lane of candidates.slice(0, MAX_LANES)) {
            addLane(lane.name, lane.depth, (track) => {
              let maxDepth = 0;
              for (const c of lane.callbacks) if (c[2] > maxDepth) maxDepth = c[2];
              track.style.height = (20 + (maxDepth + 1) * 8 + 8) + "px";
              for (const [a, b, state, cancelled] of lane.spans) {
                if (!inView(a, b)) continue;
                const s = el("div", "span " + state + (cancelled ? " cancelled" : ""), state + (cancelled ? " (cancelled)" : ""));
                s.style.left = x(a, width) + "px";
                s.style.width = Math.max(1, x(b, width) - x(a, width)) + "px";
                s.title = lane.name + " " + state + (cancelled ? " (cancelled)" : "") + " from " + seconds(a) + " to " + seconds(b);
                track.appendChild(s);
              }
              let drawn = 0;
              for (const [a, b, depth, name, ordinal, endOrdinal] of lane.callbacks) {
                if (!inView(a, b)) continue;
                if (++drawn > MAX_PER_LANE) { omitted++; continue; }
                const c = el("div", "cb");
                c.style.left = x(a, width) + "px";
                c.style.width = Math.max(1, x(b, width) - x(a, width)) + "px";
                c.style.top = (19 + depth * 8) + "px";
                c.title = lane.name + "." + trace.names[name] + " " + seconds(a) + " – " + seconds(b) + " (" + (b - a) + " ns; event " + ordinal + ")";
                c.dataset.ordinal = ordinal;
                if (endOrdinal !== null) c.dataset.endOrdinal = endOrdinal;
                if (highlighted.has(ordinal) || (endOrdinal !== null && highlighted.has(endOrdinal))) c.classList.add("hl");
                track.appendChild(c);
              }
              for (const [kind, list] of [["mark", lane.marks], ["op", lane.ops]]) {
                for (const [t, label, ordinal] of list) {
                  if (!inView(t, t)) continue;
                  if (++drawn > MAX_PER_LANE) { omitted++; continue; }
                  const m = el("div", kind + (label.startsWith("save (critical)") ? " critical" : ""));
                  m.style.left = x(t, width) + "px";
                  m.title = label + " at " + seconds(t) + " (event " + ordinal + ")";
                  m.dataset.ordinal = ordinal;
                  if (highlighted.has(ordinal)) m.classList.add("hl");
                  track.appendChild(m);
                }
              }
              if (lane.end !== undefined && inView(lane.end, lane.end)) {
                const end = el("div", "op");
                end.style.background = "#000";
                end.style.left = x(lane.end, width) + "px";
                end.title = lane.name + " ends at " + seconds(lane.end) + " (deinit or end of its process)";
                track.appendChild(end);
              }
              addFlags(track, lane.name);
            });
          }
          const notes = [];
          if (hiddenLanes) notes.push(hiddenLanes + " more controllers have something in view but are not drawn (at most " + MAX_LANES + " lanes): zoom in or filter by controller");
          if (omitted) notes.push(omitted + " items in view not drawn (more than " + MAX_PER_LANE + " in a lane): zoom in to see them");
          if (trace.dropped) notes.push(trace.dropped + " callbacks of this trace are not in the report (item limit)");
          if (trace.sampled) notes.push("the state panel has " + trace.states.length + " evenly spread instants of this trace (it shows the state at the last one at or before the clicked time)");
          notes.push("wheel: zoom; drag: pan; click: state at that instant");
          $("view-note").textContent = notes.join(" · ");
        }

        function renderFindings(trace) {
          const list = $("finding-list");
          list.textContent = "";
          const findings = visibleFindings(trace);
          $("finding-count").textContent = findings.length;
          for (const [f, i] of findings) {
            const item = el("li", "finding" + (i === selectedFinding ? " selected" : ""));
            item.dataset.index = i;
            item.dataset.t = f.t;
            const line = el("div");
            line.appendChild(el("span", "sev " + f.severity, f.severity + (f.verdict === "inconclusive" ? " (inconclusive)" : "")));
            line.appendChild(document.createTextNode(" "));
            line.appendChild(el("span", "rule", f.rule));
            line.appendChild(el("span", "when", " at " + seconds(f.t) + (f.controller ? " in " + f.controller : "") + (f.callback ? ", " + f.callback : "") + " (event " + f.ordinal + ")"));
            item.appendChild(line);
            item.appendChild(el("div", "message", f.message));
            if (f.fix) item.appendChild(el("div", "fix", "fix: " + f.fix));
            item.addEventListener("click", () => jumpTo(i));
            list.appendChild(item);
          }
        }

        function render() {
          const trace = traces[current];
          const width = trackWidth();
          renderAxis(width);
          renderLanes(trace, width);
          renderFindings(trace);
          placeCursor(width);
        }

        function placeCursor(width) {
          const cursor = $("cursor");
          if (cursorT === null || cursorT < view.t0 || cursorT > view.t1) { cursor.style.display = "none"; return; }
          cursor.style.display = "block";
          cursor.style.left = (230 + x(cursorT, width)) + "px";
        }

        // The state after every event at or before t: the embedded text of the last kept instant at or before t.
        function setInstant(t) {
          const trace = traces[current];
          t = Math.max(0, Math.round(t));
          cursorT = t;
          const states = trace.states;
          let lo = 0, hi = states.length - 1, found = -1;
          while (lo <= hi) { const mid = (lo + hi) >> 1; if (states[mid][0] <= t) { found = mid; lo = mid + 1; } else hi = mid - 1; }
          const panel = $("state-panel");
          if (found < 0) {
            $("state-text").textContent = "";
            $("state-note").textContent = "no state before the first event";
            return;
          }
          const [at, summary, tree] = states[found];
          const shown = trace.sampled ? at : t;
          panel.dataset.t = shown;
          $("state-instant").textContent = seconds(shown) + (trace.wall_start_ms === undefined ? "" : " (" + wallText(trace, shown) + ")");
          $("state-text").textContent = "state at " + seconds(shown) + " " + summary + "\n" + tree;
          $("state-note").textContent = trace.sampled && at !== t
            ? "clicked " + seconds(t) + "; shown: the state at the nearest kept instant at or before it, as 'lifetrace state --at " + shown + "ns' prints it"
            : "as 'lifetrace state " + trace.path + " --at " + t + "ns' prints it";
          placeCursor(trackWidth());
        }

        function jumpTo(index) {
          const trace = traces[current];
          const f = trace.findings[index];
          selectedFinding = index;
          highlighted = new Set([f.ordinal, ...f.related.map((r) => r[0])]);
          const times = [f.t, ...f.related.map((r) => r[1])];
          const lo = Math.min(...times), hi = Math.max(...times);
          const pad = Math.max((hi - lo) * 0.25, (view.t1 - view.t0) * 0.05, 1e6);
          view = { t0: Math.max(0, lo - pad), t1: Math.min(Math.max(trace.end, 1), hi + pad) };
          if (view.t1 <= view.t0) view = { t0: 0, t1: Math.max(trace.end, 1) };
          render();
          setInstant(f.t);
        }

        function zoom(factor, around) {
          const trace = traces[current];
          const span = view.t1 - view.t0;
          const center = around === undefined ? (view.t0 + view.t1) / 2 : around;
          const full = Math.max(trace.end, 1);
          let next = Math.min(full, Math.max(10, span * factor));
          let t0 = center - (center - view.t0) * (next / span);
          t0 = Math.max(0, Math.min(t0, full - next));
          view = { t0, t1: t0 + next };
          render();
        }

        function timeAt(clientX) {
          const rect = $("axis").getBoundingClientRect();
          return view.t0 + (clientX - rect.left) / rect.width * (view.t1 - view.t0);
        }

        let drag = null;
        for (const target of [$("lanes"), $("axis")]) {
          target.addEventListener("mousedown", (e) => { drag = { x: e.clientX, t0: view.t0, t1: view.t1, moved: false }; });
          target.addEventListener("wheel", (e) => {
            e.preventDefault();
            if (e.shiftKey) { const shift = (view.t1 - view.t0) * (e.deltaY > 0 ? 0.1 : -0.1); view = { t0: view.t0 + shift, t1: view.t1 + shift }; zoom(1); return; }
            zoom(e.deltaY > 0 ? 1.25 : 0.8, timeAt(e.clientX));
          }, { passive: false });
        }
        window.addEventListener("mousemove", (e) => {
          if (!drag) return;
          const dx = e.clientX - drag.x;
          if (Math.abs(dx) > 3) drag.moved = true;
          if (!drag.moved) return;
          const rect = $("axis").getBoundingClientRect();
          const shift = -dx / rect.width * (drag.t1 - drag.t0);
          const full = Math.max(traces[current].end, 1);
          const span = drag.t1 - drag.t0;
          const t0 = Math.max(0, Math.min(drag.t0 + shift, full - span));
          view = { t0, t1: t0 + span };
          render();
        });
        window.addEventListener("mouseup", (e) => {
          if (drag && !drag.moved && (e.target.closest("#lanes") || e.target.closest("#axis"))) {
            const rect = $("axis").getBoundingClientRect();
            if (e.clientX >= rect.left) setInstant(timeAt(e.clientX));
          }
          drag = null;
        });
        $("zoom-in").addEventListener("click", () => zoom(0.5, cursorT === null ? undefined : cursorT));
        $("zoom-out").addEventListener("click", () => zoom(2, cursorT === null ? undefined : cursorT));
        $("zoom-reset").addEventListener("click", () => { view = { t0: 0, t1: Math.max(traces[current].end, 1) }; render(); });
        $("filter-controller").addEventListener("change", render);
        $("filter-rule").addEventListener("change", render);
        window.addEventListener("resize", render);

        renderSummary();
        if (traces.length > 0) selectTrace(0);
        """#
}

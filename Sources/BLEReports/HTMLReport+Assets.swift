extension HTMLReport {
    static let stylesheet = #"""
        body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:16px 24px;color:#1d2330;background:#fff}
        h1{font-size:20px;margin:0 0 12px;word-break:break-all}h2{font-size:16px;margin:20px 0 8px}
        table{border-collapse:collapse}th,td{text-align:left;padding:3px 10px 3px 0;vertical-align:top}
        table.list th{border-bottom:1px solid #ccd}table.list td{border-bottom:1px solid #eef}
        table.facts th{color:#556;font-weight:500}
        tr.error td{color:#b3161b}tr.warning td{color:#8a6500}
        tr.service td,tr.secondary-service td{font-weight:600}tr.descriptor td:first-child{padding-left:16px}
        .toolbar{margin:4px 0 8px;display:flex;gap:8px;align-items:center;flex-wrap:wrap}
        .hint{color:#667;font-size:12px}.legend{font-size:12px;color:#445}
        .legend i{display:inline-block;width:12px;height:10px;margin:0 4px 0 10px;vertical-align:middle}
        .legend .adv{background:#8fb4e0}.legend .ok{background:#2a9d6f}.legend .warn{background:#e0a800}.legend .err{background:#d62828}
        #axis-row,.lane{display:flex;align-items:stretch}
        .label{flex:0 0 230px;padding:4px 8px 4px 0;overflow:hidden}
        .label .title{font-weight:600;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
        .label .sub{font-size:11px;color:#667;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
        canvas{flex:1 1 auto;min-width:0;display:block}#axis{height:22px}
        .lane{border-top:1px solid #e4e7ee}.lane canvas{height:46px;cursor:crosshair}
        .lane.host{background:#fafafc}
        .detail{margin-top:8px;padding:6px 8px;background:#f4f6fa;border-radius:4px;white-space:pre-wrap;font:12px/1.4 ui-monospace,monospace}
        .tip{position:fixed;pointer-events:none;background:#1d2330;color:#fff;padding:4px 8px;border-radius:4px;
        font:12px/1.4 ui-monospace,monospace;white-space:pre-wrap;max-width:560px;z-index:9}
        details{margin:6px 0}summary{cursor:pointer;font-weight:600}
        """#

    /// Hand-written, no framework: builds one lane per device from the data blob, draws spans
    /// and marks on canvases (per pixel column, the worst mark, once there are more marks than
    /// pixels), zooms with the wheel or buttons, pans by dragging, shows details on hover and
    /// click, and jumps to a failure from the list. Text goes into the page only via
    /// `textContent`.
    static let script = #"""
        (function () {
          "use strict";
          var data = JSON.parse(document.getElementById("bledecode-data").textContent);
          var end = Math.max(data.end, 1);
          var SEVERITY = ["#8a94a6", "#e0a800", "#d62828"];
          var COMMAND = ["#2a9d6f", "#e0a800", "#d62828"];
          var BAR = ["#2a9d6f", "#e0a800", "#d62828"];
          var view = { t0: -end * 0.01, t1: end * 1.01 }, focus = null, lanes = [];
          var lanesEl = document.getElementById("lanes"), axis = document.getElementById("axis");
          var tip = document.getElementById("tip"), detail = document.getElementById("detail");

          function seconds(us) { return (us < 0 ? "-" : "+") + (Math.abs(us) / 1e6).toFixed(6) + " s"; }
          function lower(marks, t) {
            var lo = 0, hi = marks.length;
            while (lo < hi) { var mid = (lo + hi) >> 1; if (marks[mid][0] < t) lo = mid + 1; else hi = mid; }
            return lo;
          }
          function fit(canvas) {
            var ratio = window.devicePixelRatio || 1, w = canvas.clientWidth, h = canvas.clientHeight;
            if (canvas.width !== Math.round(w * ratio) || canvas.height !== Math.round(h * ratio)) {
              canvas.width = Math.round(w * ratio); canvas.height = Math.round(h * ratio);
            }
            var g = canvas.getContext("2d");
            g.setTransform(ratio, 0, 0, ratio, 0, 0);
            g.clearRect(0, 0, w, h);
            return { g: g, w: w, h: h };
          }
          function px(t, w) { return (t - view.t0) / (view.t1 - view.t0) * w; }

          function drawAxis() {
            var c = fit(axis), range = view.t1 - view.t0;
            var step = Math.pow(10, Math.floor(Math.log10(range / 8)));
            if (range / step > 40) step *= 5; else if (range / step > 16) step *= 2;
            c.g.fillStyle = "#556"; c.g.font = "11px sans-serif"; c.g.textBaseline = "top";
            for (var t = Math.ceil(view.t0 / step) * step; t <= view.t1; t += step) {
              var x = px(t, c.w);
              c.g.fillRect(x, 14, 1, 8);
              c.g.fillText("+" + (t / 1e6).toFixed(step >= 1e6 ? 0 : Math.min(6, Math.ceil(-Math.log10(step / 1e6)))) + " s", x + 3, 2);
            }
          }

          function drawLane(lane) {
            var c = fit(lane.canvas), g = c.g, w = c.w, drawn = 0, i;
            lane.data.spans.forEach(function (s) {
              var a = px(s[0], w), b = px(s[1] === null ? end : s[1], w);
              if (b < 0 || a > w) return;
              if (s[3] === 0) { g.fillStyle = "#8fb4e0"; g.fillRect(a, 3, Math.max(b - a, 2), 7); }
              else {
                g.fillStyle = BAR[s[2]]; g.fillRect(a, 13, Math.max(b - a, 2), 12);
                if (s[1] === null) { g.beginPath(); g.moveTo(b, 10); g.lineTo(b + 8, 19); g.lineTo(b, 28); g.fill(); }
              }
              drawn++;
            });
            var marks = lane.data.marks, lo = lower(marks, view.t0), hi = lower(marks, view.t1 + 1);
            if (hi - lo > w) {
              var worst = new Int8Array(Math.ceil(w) + 1).fill(-1), kind = new Int8Array(Math.ceil(w) + 1);
              for (i = lo; i < hi; i++) {
                var col = Math.floor(px(marks[i][0], w));
                if (marks[i][1] > worst[col] || (marks[i][1] === worst[col] && marks[i][2] > kind[col])) {
                  worst[col] = marks[i][1]; kind[col] = marks[i][2];
                }
              }
              for (i = 0; i < worst.length; i++) {
                if (worst[i] < 0) continue;
                g.fillStyle = kind[i] === 1 ? COMMAND[worst[i]] : SEVERITY[worst[i]];
                g.fillRect(i, worst[i] > 0 ? 28 : 30, 1, worst[i] > 0 ? 16 : 12);
                drawn++;
              }
            } else {
              for (i = lo; i < hi; i++) {
                var m = marks[i], x = px(m[0], w);
                if (m[2] === 2) {
                  g.fillStyle = SEVERITY[m[1]]; g.beginPath();
                  g.moveTo(x, 28); g.lineTo(x + 6, 44); g.lineTo(x - 6, 44); g.fill();
                } else {
                  g.fillStyle = m[2] === 1 ? COMMAND[m[1]] : SEVERITY[m[1]];
                  g.fillRect(x - 1, 30, 2, 12);
                }
                drawn++;
              }
            }
            if (focus !== null) {
              g.fillStyle = "#d62828"; var f = px(focus, w);
              for (var y = 0; y < c.h; y += 6) g.fillRect(f, y, 1, 3);
            }
            return drawn;
          }

          function draw() {
            drawAxis();
            var drawn = 0;
            lanes.forEach(function (lane) { drawn += drawLane(lane); });
            document.body.setAttribute("data-drawn", String(drawn));
          }

          function zoom(factor, at) {
            var t = at === undefined ? (view.t0 + view.t1) / 2 : at;
            var range = Math.min(Math.max((view.t1 - view.t0) * factor, 50), end * 4);
            var share = (t - view.t0) / (view.t1 - view.t0);
            view = { t0: t - share * range, t1: t - share * range + range };
            draw();
          }

          function hit(lane, event) {
            var rect = lane.canvas.getBoundingClientRect(), w = rect.width, x = event.clientX - rect.left;
            var t = view.t0 + x / w * (view.t1 - view.t0), marks = lane.data.marks, best = null, bestDistance = 5;
            var i = lower(marks, t);
            for (var j = Math.max(0, i - 8); j < Math.min(marks.length, i + 8); j++) {
              var d = Math.abs(px(marks[j][0], w) - x);
              if (d <= bestDistance) { best = seconds(marks[j][0]) + "  " + marks[j][3]; bestDistance = d; }
            }
            if (best !== null) return best;
            var spans = lane.data.spans.filter(function (s) { return s[0] <= t && t <= (s[1] === null ? end : s[1]); });
            return spans.length ? spans.map(function (s) { return seconds(s[0]) + "  " + s[4]; }).join("\n") : null;
          }

          data.lanes.forEach(function (laneData) {
            var row = document.createElement("div");
            row.className = laneData.device ? "lane" : "lane host";
            row.setAttribute(laneData.device ? "data-lane" : "data-host", laneData.id);
            var label = document.createElement("div"), title = document.createElement("div"), sub = document.createElement("div");
            label.className = "label"; title.className = "title"; sub.className = "sub";
            title.textContent = laneData.title; sub.textContent = laneData.sub; title.title = laneData.title;
            label.appendChild(title); label.appendChild(sub);
            var canvas = document.createElement("canvas");
            row.appendChild(label); row.appendChild(canvas); lanesEl.appendChild(row);
            var lane = { data: laneData, canvas: canvas };
            lanes.push(lane);
            var dragX = null, moved = false;
            canvas.addEventListener("mousedown", function (e) { dragX = e.clientX; moved = false; });
            window.addEventListener("mouseup", function () { dragX = null; });
            canvas.addEventListener("mousemove", function (e) {
              if (dragX !== null && e.buttons) {
                var shift = (e.clientX - dragX) / canvas.clientWidth * (view.t1 - view.t0);
                if (Math.abs(e.clientX - dragX) > 2) moved = true;
                view = { t0: view.t0 - shift, t1: view.t1 - shift }; dragX = e.clientX; draw(); tip.hidden = true; return;
              }
              var text = hit(lane, e);
              if (text === null) { tip.hidden = true; return; }
              tip.textContent = laneData.title + "\n" + text; tip.hidden = false;
              tip.style.left = Math.min(e.clientX + 14, window.innerWidth - 580) + "px"; tip.style.top = (e.clientY + 14) + "px";
            });
            canvas.addEventListener("mouseleave", function () { tip.hidden = true; });
            canvas.addEventListener("click", function (e) {
              if (moved) return;
              var text = hit(lane, e);
              if (text !== null) detail.textContent = laneData.title + "\n" + text;
            });
            canvas.addEventListener("wheel", function (e) {
              e.preventDefault();
              var rect = canvas.getBoundingClientRect();
              zoom(e.deltaY > 0 ? 1.25 : 0.8, view.t0 + (e.clientX - rect.left) / rect.width * (view.t1 - view.t0));
            }, { passive: false });
          });

          document.getElementById("zoom-in").addEventListener("click", function () { zoom(0.5); });
          document.getElementById("zoom-out").addEventListener("click", function () { zoom(2); });
          document.getElementById("zoom-reset").addEventListener("click", function () {
            view = { t0: -end * 0.01, t1: end * 1.01 }; focus = null; draw();
          });
          Array.prototype.forEach.call(document.querySelectorAll("a[data-t]"), function (link) {
            link.addEventListener("click", function () {
              var t = Number(link.getAttribute("data-t")), range = Math.max(end / 40, 200000);
              focus = t; view = { t0: t - range / 2, t1: t + range / 2 }; draw();
              var row = link.closest("tr");
              detail.textContent = row ? Array.prototype.map.call(row.cells, function (c) { return c.textContent; }).join("  ") : "";
            });
          });
          window.addEventListener("resize", draw);
          draw();
        })();
        """#
}

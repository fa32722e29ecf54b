// wxbot 管理后台: plain JS, no build step, no CDN. Every value is inserted with textContent (never
// innerHTML); charts are SVG drawn here. Times and outcome names come from the server, already in
// the bot's zone (WXBOT_TZ, 24-hour) and in Chinese.
"use strict";

const $ = (sel) => document.querySelector(sel);
const SVG = "http://www.w3.org/2000/svg";
const COLOURS = {
  event: "#8e6bbf", control: "#777", expected_input: "#3a7bd5", rules: "#2b8a3e",
  intent_model: "#e6a700", llm_router: "#d9480f", fallback: "#c92a2a",
};
let currentUser = null;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k.startsWith("data-")) node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = String(text);
  return node;
}

async function api(path) {
  const res = await fetch(path, { credentials: "same-origin", headers: { Accept: "application/json" } });
  if (res.status === 401 || res.status === 403) { window.location = "/admin/login"; throw new Error("auth"); }
  if (!res.ok) throw new Error(path + ": " + res.status);
  return res.json();
}

function traceView(t) {
  const rows = [
    ["轮次", t.turn_id], ["决定阶段", t.stage_name], ["意图", t.intent + "（置信度 " + Number(t.confidence).toFixed(2) + "）"],
    ["技能 / 动作", (t.skill || "无") + " / " + (t.action || "无")], ["原因", t.detail || "无"],
    ["模型调用", t.llm_calls + " 次"], ["令牌", t.prompt_tokens + " + " + t.completion_tokens],
    ["耗时", Number(t.latency_ms).toFixed(1) + " 毫秒"],
    ["之前的状态", t.state_before_text], ["之后的状态", t.state_after_text],
    ["错误", t.errors.length ? t.errors.join("；") : "无"],
  ];
  const fields = ["turn", "stage", "intent", "skill", "why", "llm_calls", "tokens", "latency", "state_before",
    "state_after", "errors"];
  const dl = el("dl");
  rows.forEach(([k, v], i) => dl.append(el("dt", {}, k), el("dd", { "data-field": fields[i] }, v)));
  return el("details", { class: "trace" },
    el("summary", {}, "追踪：" + t.stage_name + " · " + t.intent + (t.llm_calls ? " · 调用模型 " + t.llm_calls + " 次" : "")),
    dl);
}

function entryView(e) {
  if (e.kind === "turn") {
    const inb = e.inbound;
    const said = inb.event ? "[" + inb.event + (inb.key ? " " + inb.key : "") + "]" : inb.text;
    const box = el("div", { class: "entry turn", "data-id": e.id },
      el("div", { class: "said" }, e.time + "  用户：" + said));
    for (const r of e.replies) box.append(el("div", { class: "bot" }, "机器人：" + r));
    box.append(traceView(e.trace));
    return box;
  }
  if (e.kind === "delivery") {
    return el("div", { class: "entry delivery", "data-id": e.id, "data-outcome": e.outcome },
      e.time + "  [" + (e.push ? "推送" : "回复") + " · " + e.label + "] " + e.text);
  }
  return el("div", { class: "entry unreadable" }, "无法读取的记录 " + e.id + "：" + e.reason);
}

async function loadUsers() {
  const data = await api("/admin/api/users");
  const list = $("#users");
  list.replaceChildren();
  if (!data.users.length) list.append(el("li", { class: "muted" }, "还没有会话"));
  for (const u of data.users) {
    const button = el("button", { type: "button", "data-user": u.user },
      u.user, el("br"), el("span", { class: "muted" }, u.last_active_text));
    button.addEventListener("click", () => openUser(u.user));
    list.append(el("li", {}, button));
  }
}

function showTab(name) {
  for (const b of document.querySelectorAll(".tabs button")) b.classList.toggle("active", b.dataset.tab === name);
  for (const t of document.querySelectorAll(".tab")) t.hidden = t.id !== name;
  if (name === "rerun") loadRerun();
  if (name === "context") loadContext();
}

async function openUser(user) {
  currentUser = user;
  for (const b of document.querySelectorAll("#users button")) b.classList.toggle("active", b.dataset.user === user);
  $("#detail-title").textContent = "与 " + user + " 的对话";
  $("#tabs").hidden = false;
  showTab("transcript");
  const data = await api("/admin/api/transcript?limit=500&user=" + encodeURIComponent(user));
  const box = $("#transcript");
  box.replaceChildren(...data.entries.map(entryView));
  if (!data.entries.length) box.append(el("p", { class: "muted" }, "对话记录是空的"));
}

async function loadRerun() {
  const box = $("#rerun");
  box.replaceChildren(el("p", { class: "muted" }, "正在沙盒里用当前代码重跑…"));
  const report = await api("/admin/api/rerun?user=" + encodeURIComponent(currentUser));
  const table = el("table", { id: "rerun-table" },
    el("tr", {}, el("th", {}, "#"), el("th", {}, "时间"), el("th", {}, "用户说"), el("th", {}, "当时"),
      el("th", {}, "当前代码")));
  for (const d of report.turns) {
    const cell = (o) => o ? el("div", {}, o.stage + " · " + o.intent, el("br"), o.reply) : el("div", {}, "—");
    const row = el("tr", { class: d.changed.length ? "changed" : "", "data-changed": d.changed.join(",") },
      el("td", {}, d.index), el("td", {}, d.time), el("td", {}, d.said),
      el("td", { class: d.changed.length ? "diff-old" : "" }, cell(d.recorded)),
      el("td", { class: d.changed.length ? "diff-new" : "" }, cell(d.rerun), d.error ? el("div", { class: "error" }, d.error) : null));
    table.append(row);
  }
  box.replaceChildren(el("p", { id: "rerun-summary" }, report.turns.length + " 轮中有 " + report.changed + " 轮不同"), table);
}

async function loadContext() {
  const data = await api("/admin/api/context?user=" + encodeURIComponent(currentUser));
  let text = JSON.stringify(data.context, null, 2);
  if (data.quarantined !== null) text += "\n\n# 隔离的（损坏的）数据\n" + JSON.stringify(data.quarantined, null, 2);
  $("#context").textContent = text;
}

// A horizontal bar chart: rows of [label, value, text shown after the bar].
function barChart(id, title, rows, colour) {
  const width = 300, left = 92, bar = 14, gap = 6;
  const max = Math.max(1, ...rows.map((r) => r[1]));
  const chart = svg("svg", { id, class: "chart", width, height: Math.max(1, rows.length) * (bar + gap) + 4,
    role: "img", "aria-label": title });
  rows.forEach(([label, value, text], i) => {
    const y = i * (bar + gap) + 2;
    const w = Math.max(value ? 2 : 0, (width - left - 64) * value / max);
    chart.append(svg("text", { x: left - 4, y: y + bar - 3, "text-anchor": "end", class: "axis" }, label));
    chart.append(svg("rect", { x: left, y, width: w, height: bar, fill: colour, "data-label": label, "data-value": value }));
    chart.append(svg("text", { x: left + w + 4, y: y + bar - 3, class: "axis" }, text));
  });
  return el("figure", {}, el("figcaption", {}, title), rows.length ? chart : el("p", { class: "muted" }, "暂无数据"));
}

// Stacked columns: turns per hour, one colour per deciding stage.
function hourlyChart(hourly, names) {
  const width = 300, height = 110, bottom = 16, left = 22;
  const totals = hourly.map((h) => Object.values(h.stages).reduce((a, b) => a + b, 0));
  const max = Math.max(1, ...totals);
  const step = (width - left) / Math.max(1, hourly.length);
  const chart = svg("svg", { id: "chart-hourly", class: "chart", width, height, role: "img", "aria-label": "每小时对话" });
  chart.append(svg("text", { x: 0, y: 10, class: "axis" }, max));
  chart.append(svg("text", { x: 0, y: height - bottom, class: "axis" }, 0));
  hourly.forEach((h, i) => {
    let y = height - bottom;
    for (const [stage, n] of Object.entries(h.stages)) {
      if (!n) continue;
      const hgt = (height - bottom - 4) * n / max;
      y -= hgt;
      const rect = svg("rect", { x: left + i * step + 1, y, width: Math.max(1, step - 2), height: hgt,
        fill: COLOURS[stage] || "#999", "data-stage": stage, "data-hour": h.hour, "data-count": n });
      rect.append(svg("title", {}, h.hour + " " + names[stage] + "：" + n));
      chart.append(rect);
    }
    if (i % 6 === 0) chart.append(svg("text", { x: left + i * step, y: height - 3, class: "axis" }, h.hour.slice(6)));
  });
  const legend = el("div", { class: "legend" });
  for (const [stage, name] of Object.entries(names)) {
    const swatch = el("i");
    swatch.style.background = COLOURS[stage] || "#999";
    legend.append(el("span", {}, swatch, name));
  }
  return el("figure", {}, el("figcaption", {}, "每小时对话（最近 24 小时，按决定阶段）"), chart, legend);
}

async function loadStats() {
  const data = await api("/admin/api/stats");
  const t = data.turns, q = data.queues, names = data.stage_names;
  $("#stats-tz").textContent = "（" + data.tz + "）";
  const lat = t.latency;
  const charts = [
    hourlyChart(data.hourly, names),
    barChart("chart-latency", "延迟（最近 " + lat.samples + " 轮，毫秒）",
      [["p50", lat.p50], ["p90", lat.p90], ["p99", lat.p99], ["最大", lat.max]].map(([k, v]) => [k, v, v.toFixed(1)]), "#3a7bd5"),
    barChart("chart-deliveries", "送达结果",
      Object.entries(data.deliveries_by_label).map(([k, v]) => [k, v, v]), "#2b8a3e"),
    barChart("chart-queues", "队列",
      [["等待的邮箱", q.mailboxes, q.mailboxes + " 人 · " + q.mailbox_messages + " 条"]].concat(
        ...q.queues.map((qu) => [[qu.name + " 排队", qu.queued, qu.queued], [qu.name + " 运行中", qu.started, qu.started],
          [qu.name + " 失败", qu.failed, qu.failed]])), "#e6a700"),
  ];
  const rows = [
    ["对话轮数", t.turns], ["不调用模型的占比", (t.zero_model_share * 100).toFixed(1) + "%"],
    ["模型调用", t.llm_calls + " 次"], ["令牌", t.prompt_tokens + " + " + t.completion_tokens],
  ];
  for (const [k, v] of Object.entries(t.by_stage)) rows.push(["阶段 " + (names[k] || k), v]);
  const table = el("table", { id: "stats-table" });
  for (const [k, v] of rows) table.append(el("tr", {}, el("th", {}, k), el("td", {}, v)));
  $("#stats").replaceChildren(...charts, table);
}

for (const b of document.querySelectorAll(".tabs button")) b.addEventListener("click", () => showTab(b.dataset.tab));
$("#refresh").addEventListener("click", () => { loadUsers(); loadStats(); if (currentUser) openUser(currentUser); });
loadUsers();
loadStats();

// wxbot admin page: plain JS, no build step. Every value is inserted with textContent (never innerHTML).
"use strict";

const $ = (sel) => document.querySelector(sel);
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

async function api(path) {
  const res = await fetch(path, { credentials: "same-origin", headers: { Accept: "application/json" } });
  if (res.status === 401 || res.status === 403) { window.location = "/admin/login"; throw new Error("auth"); }
  if (!res.ok) throw new Error(path + ": " + res.status);
  return res.json();
}

function when(iso) { return new Date(iso).toLocaleString(); }

function stateText(s) {
  const parts = [s.active_skill || "-"];
  if (s.expected_field) parts.push("awaiting " + s.expected_field);
  if (s.pending_confirmation) parts.push("confirm " + s.pending_confirmation);
  if (s.paused && s.paused.length) parts.push("paused " + s.paused.join(","));
  return parts.join(" ");
}

function traceView(t) {
  const rows = [
    ["turn", t.turn_id], ["stage", t.stage], ["intent", t.intent + " (" + Number(t.confidence).toFixed(2) + ")"],
    ["skill / action", (t.skill || "-") + " / " + (t.action || "-")], ["why", t.detail || "-"],
    ["model calls", t.llm_calls], ["tokens", t.prompt_tokens + " + " + t.completion_tokens],
    ["latency", Number(t.latency_ms).toFixed(1) + " ms"],
    ["state before", stateText(t.state_before)], ["state after", stateText(t.state_after)],
    ["errors", t.errors.length ? t.errors.join("; ") : "none"],
  ];
  const dl = el("dl");
  for (const [k, v] of rows) dl.append(el("dt", {}, k), el("dd", { "data-field": k }, v));
  return el("details", { class: "trace" },
    el("summary", {}, "trace: " + t.stage + " · " + t.intent + (t.llm_calls ? " · " + t.llm_calls + " model calls" : "")),
    dl);
}

function entryView(e) {
  if (e.kind === "turn") {
    const inb = e.inbound;
    const said = inb.event ? "[" + inb.event + (inb.key ? " " + inb.key : "") + "]" : inb.text;
    const box = el("div", { class: "entry turn", "data-id": e.id },
      el("div", { class: "said" }, when(inb.at) + "  用户 (" + inb.origin + ")：" + said));
    for (const r of e.replies) box.append(el("div", { class: "bot" }, "机器人：" + r));
    box.append(traceView(e.trace));
    return box;
  }
  if (e.kind === "delivery") {
    return el("div", { class: "entry delivery", "data-id": e.id },
      when(e.recorded_at) + "  [" + (e.push ? "push" : "reply") + " via " + e.channel + ": " + e.outcome + "] " + e.text);
  }
  return el("div", { class: "entry unreadable" }, "unreadable entry " + e.id + ": " + e.reason);
}

async function loadUsers() {
  const data = await api("/admin/api/users");
  const list = $("#users");
  list.replaceChildren();
  if (!data.users.length) list.append(el("li", { class: "muted" }, "no conversations yet"));
  for (const u of data.users) {
    const button = el("button", { type: "button", "data-user": u.user },
      u.user, el("br"), el("span", { class: "muted" }, when(u.last_active)));
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
  $("#detail-title").textContent = "Conversation with " + user;
  $("#tabs").hidden = false;
  showTab("transcript");
  const data = await api("/admin/api/transcript?limit=500&user=" + encodeURIComponent(user));
  const box = $("#transcript");
  box.replaceChildren(...data.entries.map(entryView));
  if (!data.entries.length) box.append(el("p", { class: "muted" }, "empty transcript"));
}

async function loadRerun() {
  const box = $("#rerun");
  box.replaceChildren(el("p", { class: "muted" }, "re-running in a sandbox…"));
  const report = await api("/admin/api/rerun?user=" + encodeURIComponent(currentUser));
  const table = el("table", { id: "rerun-table" },
    el("tr", {}, el("th", {}, "#"), el("th", {}, "said"), el("th", {}, "recorded"), el("th", {}, "current code")));
  for (const d of report.turns) {
    const cell = (o) => o ? el("div", {}, o.stage + " · " + o.intent, el("br"), o.reply) : el("div", {}, "—");
    const row = el("tr", { class: d.changed.length ? "changed" : "", "data-changed": d.changed.join(",") },
      el("td", {}, d.index), el("td", {}, d.said), el("td", { class: d.changed.length ? "diff-old" : "" }, cell(d.recorded)),
      el("td", { class: d.changed.length ? "diff-new" : "" }, cell(d.rerun), d.error ? el("div", { class: "error" }, d.error) : null));
    table.append(row);
  }
  box.replaceChildren(el("p", { id: "rerun-summary" }, report.changed + " of " + report.turns.length + " turns changed"), table);
}

async function loadContext() {
  const data = await api("/admin/api/context?user=" + encodeURIComponent(currentUser));
  let text = JSON.stringify(data.context, null, 2);
  if (data.quarantined !== null) text += "\n\n# quarantined (corrupt) blob\n" + JSON.stringify(data.quarantined, null, 2);
  $("#context").textContent = text;
}

async function loadStats() {
  const data = await api("/admin/api/stats");
  const t = data.turns, q = data.queues;
  const rows = [
    ["turns", t.turns], ["zero-model share", (t.zero_model_share * 100).toFixed(1) + "%"],
    ["model calls", t.llm_calls], ["tokens", t.prompt_tokens + " + " + t.completion_tokens],
    ["latency p50 / p90 / p99", [t.latency.p50, t.latency.p90, t.latency.p99].map((x) => x.toFixed(1)).join(" / ") + " ms"],
    ["mailboxes waiting", q.mailboxes + " (" + q.mailbox_messages + " messages)"],
  ];
  for (const [k, v] of Object.entries(t.by_stage)) rows.push(["stage " + k, v]);
  for (const qu of q.queues) rows.push(["queue " + qu.name, qu.queued + " queued, " + qu.started + " running, " + qu.failed + " failed"]);
  for (const [k, v] of Object.entries(t.deliveries)) rows.push(["delivery " + k, v]);
  const table = el("table", { id: "stats-table" });
  for (const [k, v] of rows) table.append(el("tr", {}, el("th", {}, k), el("td", {}, v)));
  $("#stats").replaceChildren(table);
}

for (const b of document.querySelectorAll(".tabs button")) b.addEventListener("click", () => showTab(b.dataset.tab));
$("#refresh").addEventListener("click", () => { loadUsers(); loadStats(); if (currentUser) openUser(currentUser); });
loadUsers();
loadStats();

// wxbot 模拟器: posts to /simulator/api/send (which signs XML like WeChat and posts it to the webhook),
// shows the passive reply, and long-polls the transcript (one request waits up to 25 s) for async
// replies and pushes. textContent only.
"use strict";

const $ = (sel) => document.querySelector(sel);
const answered = new Set();   // msg ids that got a passive reply (their turn entries are already shown)
let lastId = null;
let sending = null;   // the promise of the send in flight, if any
let generation = 0;   // bumped when the user changes: an older poll's answer is dropped
let waiting = null;   // the AbortController of the long poll in flight

function newUser() {
  const id = "sim-" + Math.random().toString(36).slice(2, 12);
  localStorage.setItem("wxbot-sim-user", id);
  return id;
}
let user = localStorage.getItem("wxbot-sim-user") || newUser();

function bubble(kind, text, meta) {
  const node = document.createElement("div");
  node.className = "bubble " + kind;
  node.textContent = text;
  if (meta) {
    const m = document.createElement("span");
    m.className = "meta";
    m.textContent = meta;
    node.append(m);
  }
  $("#messages").append(node);
  node.scrollIntoView({ block: "end" });
  return node;
}

async function call(path, options) {
  const res = await fetch(path, Object.assign({ credentials: "same-origin" }, options || {}));
  if (res.status === 401 || res.status === 403) { window.location = "/admin/login"; throw new Error("auth"); }
  return res.json();
}

async function poll() {
  const mine = generation;
  const url = "/simulator/api/updates?wait=25&user=" + encodeURIComponent(user) +
    (lastId ? "&after=" + encodeURIComponent(lastId) : "");
  waiting = new AbortController();
  const data = await call(url, { signal: waiting.signal });
  if (mine !== generation) return;
  if (sending) { await sending; return; }  // the send's own reply is shown by the send: read again after it
  for (const e of data.entries) {
    if (e.kind === "turn" && !answered.has(e.msg_id)) {
      for (const r of e.replies) bubble("bot", r, "异步回复 · " + e.stage);
      answered.add(e.msg_id);
    } else if (e.kind === "delivery" && e.push) {
      bubble("push", e.text, "推送 · " + e.label);
    }
  }
  lastId = data.last_id || lastId;
}

async function pollForever() {
  for (;;) {
    try {
      await poll();
    } catch (err) {  // aborted for a new user: poll again at once; anything else: wait a little
      if (err.name !== "AbortError") await new Promise((r) => setTimeout(r, 3000));
    }
  }
}

async function start() {
  generation += 1;
  if (waiting) waiting.abort();
  $("#whoami").textContent = user;
  $("#messages").replaceChildren();
  answered.clear();
  lastId = null;
  // skip the existing history: start from the current end of this user's transcript
  const data = await call("/simulator/api/updates?user=" + encodeURIComponent(user));
  for (const e of data.entries) if (e.kind === "turn") answered.add(e.msg_id);
  lastId = data.last_id;
}

$("#composer").addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = $("#text").value.trim();
  if (!text || sending) return;
  $("#text").value = "";
  bubble("me", text);
  const typing = bubble("bot typing", "…");
  sending = (async () => {
    try {
      const res = await call("/simulator/api/send", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ user, text }),
      });
      typing.remove();
      if (res.error) bubble("bot", "（模拟器错误：" + res.error + "）");
      else if (res.reply !== null) { answered.add(res.msg_id); bubble("bot", res.reply, "被动回复"); }
    } finally {
      sending = null;
    }
  })();
  await sending;
});

$("#new-user").addEventListener("click", () => { user = newUser(); start(); });
start().then(pollForever);

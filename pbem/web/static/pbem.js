// pbem: a little vanilla JS. The pages work without it; it only saves taps.
"use strict";

// Filter the legal moves (and the links to groups of them) by every word
// typed: groups with no match hide, groups with one open while there is a filter.
document.addEventListener("input", (event) => {
  const box = event.target.closest("input[data-filter]");
  if (!box) return;
  const words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
  const list = document.getElementById(box.dataset.filter);
  for (const item of list.querySelectorAll("li, a.move-space")) {
    const text = item.textContent.toLowerCase();
    item.hidden = !words.every((word) => text.includes(word));
  }
  for (const group of list.querySelectorAll("details")) {
    const found = group.querySelector("li:not([hidden]), a.move-space:not([hidden])") !== null;
    group.hidden = !found;
    if (words.length && found) group.open = true;
  }
});

// The history slider goes to the move it is moved to; its button is for pages without JS.
for (const form of document.querySelectorAll("form[data-navigate-on-change]")) {
  form.querySelectorAll("button").forEach((button) => (button.hidden = true));
  form.addEventListener("change", () => form.submit());
}

// A pick form: once enough are ticked, the other boxes wait until one is unticked.
for (const box of document.querySelectorAll("fieldset[data-pick-count]")) {
  const wanted = Number(box.dataset.pickCount);
  const update = () => {
    const boxes = [...box.querySelectorAll("input[type=checkbox]")];
    const full = boxes.filter((b) => b.checked).length >= wanted;
    boxes.forEach((b) => (b.disabled = full && !b.checked));
  };
  box.addEventListener("change", update);
  update();
}

// Zoom the board: wider than its frame, the frame scrolls (a finger or the
// wheel pans it). Without JS the board fits the width and pinch-zoom works.
(function boardZoom() {
  const frame = document.getElementById("board");
  const tools = document.querySelector(".board-tools .zoom");
  const svg = frame && frame.querySelector("svg");
  if (!svg || !tools) return;
  const steps = [1, 1.5, 2, 3];
  let step = 0;
  tools.hidden = false;
  tools.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-zoom]");
    if (!button) return;
    const before = steps[step];
    step = Math.max(0, Math.min(steps.length - 1, step + (button.dataset.zoom === "in" ? 1 : -1)));
    const ratio = steps[step] / before;
    const middleX = frame.scrollLeft + frame.clientWidth / 2;
    const middleY = frame.scrollTop + frame.clientHeight / 2;
    svg.style.width = `${steps[step] * 100}%`;
    frame.scrollLeft = middleX * ratio - frame.clientWidth / 2;
    frame.scrollTop = middleY * ratio - frame.clientHeight / 2;
  });
})();

// A form is sent once: later clicks do nothing (the server refuses repeats too).
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form.dataset.sent) {
    event.preventDefault();
    return;
  }
  form.dataset.sent = "1";
  setTimeout(() => form.querySelectorAll("button").forEach((b) => (b.disabled = true)), 0);
});

// On the first visit, preselect the browser's time zone; without JS the choice stays UTC.
(function browserZone() {
  const select = document.querySelector("select[data-browser-zone]");
  if (!select) return;
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if ([...select.options].some((option) => option.value === zone)) select.value = zone;
})();

// While the server judges a move or others play, reload when the game changes.
(function poll() {
  const url = document.body.dataset.pollUrl;
  if (!url) return;
  const seen = document.body.dataset.version;
  let delay = 300;
  const check = () => {
    fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" })
      .then((response) => (response.ok ? response.json() : null))
      .then((data) => {
        if (data && String(data.version) !== seen) {
          location.reload();
          return;
        }
        delay = Math.min(delay * 1.3, 15000);
        setTimeout(check, delay);
      })
      .catch(() => setTimeout(check, (delay = Math.min(delay * 2, 15000))));
  };
  setTimeout(check, delay);
})();

// pbem: building a turn by clicks. Without JavaScript the move entry, the
// preview and the list of legal moves do the same work; this only saves taps.
//
// A move clicked in the list (or found by clicking the board) is added as a
// line; after each change of the entry the server says what may follow
// (the legal moves, the points left, the board after the lines), so a turn of
// several moves is built by clicks alone. The rules stay on the server.
"use strict";

(function turnBuilder() {
  const builder = document.getElementById("turn-builder");
  const entry = document.getElementById("moves");
  if (!builder || !entry) return;
  const undo = document.getElementById("undo-line");
  const note = document.getElementById("builder-note");
  const error = document.getElementById("builder-error");
  const PICKABLE = "[data-space], [data-tile], [data-card]";
  const BOARD = "#board, .board-panel"; // the spaces, the tiles in hand and the cards
  let picks = []; // what was clicked on the board, each a list of tokens
  let asked = 0; // answers to older questions are dropped
  const MOST_SHOWN = 200; // of the moves left after a pick; another pick narrows them

  builder.hidden = false;

  const lines = () =>
    entry.value
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean);

  // Every legal move, even where the page's groups only link to theirs, as
  // the engine writes it (picks are matched against it); `said` holds the
  // words the page says otherwise, word by word, as the lines are written.
  // Read once per list: each answer of the server brings a new element.
  let island = null;
  let data = {};
  const legal = () => {
    const now = document.getElementById("legal-data");
    if (now !== island) {
      island = now;
      data = JSON.parse(now?.textContent || "{}");
    }
    return data;
  };
  const say = (move) => {
    const words = legal().said || {};
    return move
      .split(" ")
      .map((word) => words[word] || word)
      .join(" ");
  };

  function setLines(list) {
    entry.value = list.join("\n");
    undo.disabled = list.length === 0;
    follow();
  }

  // Ask the server what may follow the lines, then swap in its answer.
  function follow() {
    const question = ++asked;
    const url = new URL(builder.dataset.followUrl, location.href);
    url.searchParams.set("moves", entry.value);
    url.searchParams.set("ply", builder.dataset.ply);
    builder.setAttribute("aria-busy", "true");
    fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" })
      .then((response) => response.json())
      .then((answer) => {
        if (question !== asked) return;
        builder.removeAttribute("aria-busy");
        builder.dataset.answered = String(question);
        if (answer.error) {
          error.textContent = answer.error;
          error.hidden = false;
          return;
        }
        error.hidden = true;
        note.textContent = answer.note;
        swap(document.getElementById("legal-block"), answer.legal);
        swapBoard(answer.board, answer.panel);
        forgetPicks();
      })
      .catch(() => {
        if (question === asked) builder.removeAttribute("aria-busy");
      });
  }

  function swap(old, html) {
    if (!old) return;
    const holder = document.createElement("div");
    holder.innerHTML = html;
    old.replaceWith(...holder.childNodes);
  }

  function swapBoard(svg, panel) {
    const frame = document.getElementById("board");
    if (!frame || !svg) return;
    const width = frame.querySelector("svg")?.style.width; // keep the zoom
    frame.innerHTML = svg;
    if (width) frame.querySelector("svg").style.width = width;
    swap(document.querySelector(".board-panel"), panel);
    makeFocusable();
  }

  function makeFocusable() {
    for (const item of document.querySelectorAll(PICKABLE)) {
      if (!item.closest(BOARD)) continue;
      item.setAttribute("tabindex", "0");
      item.classList.add("pickable");
    }
  }

  // -- narrowing the list by clicks on the board --------------------------

  function tokensOf(item) {
    if (item.dataset.space) return [item.dataset.space];
    return (item.dataset.tile || item.dataset.card).split(/\s+/).filter(Boolean);
  }

  // Where each pick is named in the move, in the order clicked when `ordered`;
  // null when a pick is not named at all.
  function fits(move, chosen, ordered) {
    const words = move.split(/\s+/);
    let after = -1;
    for (const pick of chosen) {
      const places = words.flatMap((word, index) => (pick.includes(word) ? [index] : []));
      const place = ordered ? places.find((index) => index > after) : places[0];
      if (place === undefined) return false;
      after = place;
    }
    return true;
  }

  // Moves naming every pick: in the order clicked if any (a Taluva tile's
  // volcano, then its left and right terrain), else in any order.
  function narrowed(chosen) {
    const moves = legal().moves || [];
    const ordered = moves.filter((move) => fits(move, chosen, true));
    return ordered.length ? ordered : moves.filter((move) => fits(move, chosen, false));
  }

  function pick(item) {
    const tokens = tokensOf(item);
    const again = picks.findIndex((chosen) => chosen.join(" ") === tokens.join(" "));
    let chosen = again >= 0 ? picks.filter((_, index) => index !== again) : [...picks, tokens];
    let moves = narrowed(chosen);
    if (!moves.length) {
      chosen = [tokens]; // a fresh start from this space
      moves = narrowed(chosen);
    }
    if (!moves.length) {
      note.textContent = item.getAttribute("aria-label") || tokens.join(" ");
      return;
    }
    if (moves.length === 1 && chosen.length) {
      forgetPicks();
      setLines([...lines(), say(moves[0])]);
      return;
    }
    picks = chosen;
    show(moves);
  }

  // List the moves left instead of the groups; mark the spaces picked and
  // those the moves also name.
  function show(moves) {
    const shown = document.getElementById("picked-moves");
    const groups = document.getElementById("legal-moves");
    if (shown && groups) {
      shown.querySelector("ul")?.remove();
      if (picks.length) shown.append(buttonsFor(moves));
      shown.hidden = picks.length === 0;
      groups.hidden = picks.length > 0;
    }
    const named = new Set(moves.flatMap((move) => move.split(/\s+/)));
    const picked = new Set(picks.flat());
    document.querySelectorAll("#board [data-space]").forEach((space) => {
      const name = space.dataset.space;
      space.classList.toggle("picked", picks.length > 0 && picked.has(name));
      space.classList.toggle("reachable", picks.length > 0 && !picked.has(name) && named.has(name));
    });
    document.querySelectorAll("[data-tile].pickable, [data-card].pickable").forEach((item) => {
      const name = tokensOf(item).join(" ");
      item.classList.toggle("picked", picks.some((chosen) => chosen.join(" ") === name));
    });
  }

  function buttonsFor(moves) {
    const { moves: all = [], costs = [], labels = {} } = legal();
    const costOf = new Map(all.map((move, index) => [move, costs[index]]));
    const list = document.createElement("ul");
    list.className = "legal";
    for (const move of moves.slice(0, MOST_SHOWN)) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "move";
      button.dataset.move = say(move);
      button.textContent = say(move);
      const spent = costOf.get(move);
      if (spent !== undefined && spent !== null) {
        const cost = document.createElement("small");
        cost.className = "cost";
        cost.textContent = labels[spent];
        button.append(" ", cost);
      }
      const item = document.createElement("li");
      item.append(button);
      list.append(item);
    }
    return list;
  }

  function forgetPicks() {
    picks = [];
    show([]);
  }

  // -- events --------------------------------------------------------------

  document.addEventListener("click", (event) => {
    const button = event.target.closest("button.move");
    if (button) {
      forgetPicks();
      setLines([...lines(), button.dataset.move]);
      return;
    }
    const item = event.target.closest(PICKABLE);
    if (item && item.closest(BOARD)) pick(item);
  });

  document.addEventListener("keydown", (event) => {
    const item = event.target.closest && event.target.closest(PICKABLE);
    if (item && item.closest(BOARD) && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      pick(item);
    } else if (event.key === "Escape" && picks.length) {
      forgetPicks();
    }
  });

  undo.addEventListener("click", () => setLines(lines().slice(0, -1)));

  let typing = 0;
  entry.addEventListener("input", () => {
    clearTimeout(typing);
    undo.disabled = lines().length === 0;
    typing = setTimeout(follow, 700);
  });

  undo.disabled = lines().length === 0;
  makeFocusable();
  if (lines().length) follow(); // a page drawn after a refusal, or a preview
})();

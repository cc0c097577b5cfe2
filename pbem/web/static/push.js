// The settings page's opt-in for browser notifications on this device:
// registers pbem's service worker, subscribes with the server's VAPID key
// and hands the subscription to pbem (or takes it back).
(() => {
  const box = document.getElementById("push");
  if (!box) return;
  const state = document.getElementById("push-state");
  const say = (text, detail) => {
    state.textContent = detail ? `${text}: ${detail}` : text;
    state.dataset.state = text;
  };
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    say("unsupported");
    return;
  }
  const key = Uint8Array.from(
    atob(box.dataset.key.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0),
  );
  const send = (url, subscription) => fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": box.dataset.csrf },
    body: JSON.stringify(subscription),
  });
  const registered = navigator.serviceWorker.register("/push-worker.js");
  document.getElementById("push-on").addEventListener("click", async () => {
    try {
      const registration = await registered;
      if ((await Notification.requestPermission()) !== "granted") {
        say("denied");
        return;
      }
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true, applicationServerKey: key,
      });
      const answer = await send(box.dataset.subscribe, subscription.toJSON());
      say(answer.ok ? "on" : "failed", answer.ok ? "" : String(answer.status));
    } catch (error) {
      say("failed", error.message);
    }
  });
  document.getElementById("push-off").addEventListener("click", async () => {
    const subscription = await (await registered).pushManager.getSubscription();
    if (subscription) {
      await send(box.dataset.unsubscribe, subscription.toJSON());
      await subscription.unsubscribe();
    }
    say("off");
  });
})();

// pbem's service worker: shows what pbem pushes and opens its page when clicked.
// A notification with the same tag replaces the last ("your turn" is stacked).
self.addEventListener("push", (event) => {
  const message = event.data ? event.data.json() : {};
  event.waitUntil(
    self.registration.showNotification(message.title || "pbem", {
      body: message.body || "",
      tag: message.tag,
      renotify: Boolean(message.tag),
      data: { url: message.url || "/" },
      icon: "/favicon.ico",
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(self.clients.openWindow(event.notification.data.url));
});

// Mixroom's service worker: shows Web Push messages (join requests, approvals) and opens the page
// they point at when clicked.
self.addEventListener('push', (event) => {
  const data = event.data ? event.data.json() : { title: 'Mixroom', body: '', url: '/groups' };
  event.waitUntil(
    self.registration.showNotification(data.title, { body: data.body, icon: '/favicon.svg', data: { url: data.url } }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(self.clients.openWindow(event.notification.data?.url ?? '/groups'));
});

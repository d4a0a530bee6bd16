// Service worker of Rastro: shows the cloud messages (Web Push, modules/mensagens) sent to this browser and opens
// the screen a message names when it is clicked. Registered by runtime/src/layout/Push.tsx. No caching here.
self.addEventListener('push', (event) => {
  let m = {};
  try { m = event.data ? event.data.json() : {}; } catch { m = { mensagem: event.data ? event.data.text() : '' }; }
  event.waitUntil(self.registration.showNotification(m.titulo || 'Rastro', {
    body: m.mensagem || '',
    tag: m.topico || undefined,
    data: { url: typeof m.url === 'string' && m.url.startsWith('/') ? m.url : '/adm/sis/notificacao' },
  }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || '/', self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((list) => {
    for (const c of list) if (c.url.startsWith(self.location.origin) && 'focus' in c) { c.navigate(url); return c.focus(); }
    return self.clients.openWindow(url);
  }));
});

// In-app navigation without a reload. The router (main.js) registers itself here, so that
// pages can navigate without importing the router that imports them.

let router = () => {};

/** Registers the function that draws the page for the current location (main.js does). */
export function setRouter(route) {
  router = route;
}

/** Go to an in-app URL without reloading. */
export function navigate(url, replace = false) {
  history[replace ? 'replaceState' : 'pushState'](null, '', url);
  router();
  document.getElementById('main')?.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

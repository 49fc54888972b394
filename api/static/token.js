// The token of a seat's link (#token=...), shared by the viewer and the review: read once, kept for this tab only
// (sessionStorage), and taken out of the address bar at once, so that a moment shared by copying the address never
// hands the seat over. Both pages read the same key, so a seat's view opens from one page's links in the other.
"use strict";

function takeToken(game) {
  const key = `aegis-token:${game}`;
  const given = new URLSearchParams(location.hash.slice(1)).get("token");
  if (given) {
    try {
      sessionStorage.setItem(key, given);
    } catch {
      // storage refused (a private window): the token is kept in this page only
    }
    history.replaceState(null, "", location.pathname + location.search);
    return given;
  }
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

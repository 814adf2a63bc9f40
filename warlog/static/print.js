/* A "print" link ([data-print]) opens the browser's print dialog; the print stylesheet lays the
   page out as its pairings, standings and bracket. Without this file the link opens the page. */
document.addEventListener("click", function (e) {
  var link = e.target.closest && e.target.closest("[data-print]");
  if (!link) return;
  e.preventDefault();
  window.print();
});

/* litrec: render the maths pymdownx.arithmatex marked (\(...\) inline, \[...\] display) with the
   bundled KaTeX. Only .arithmatex elements are read, so a dollar sign elsewhere stays text. */
(function () {
  function render(root) {
    if (typeof katex === "undefined") return;
    root.querySelectorAll(".arithmatex").forEach(function (el) {
      if (el.querySelector(".katex")) return;
      var tex = el.textContent.trim();
      var display = /^\\\[/.test(tex);
      var m = tex.match(/^\\[(\[]([\s\S]*)\\[)\]]$/);
      if (m) tex = m[1];
      katex.render(tex, el, { displayMode: display, throwOnError: false });
    });
  }
  if (typeof document$ !== "undefined") {
    document$.subscribe(function (doc) { render(doc.body || document.body); });
  } else {
    document.addEventListener("DOMContentLoaded", function () { render(document.body); });
  }
})();

// "/" focuses the search box, as on the rules sites judges use.
document.addEventListener("keydown", (event) => {
  const box = document.getElementById("q");
  const typing = ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName);
  if (event.key === "/" && box && !typing) {
    event.preventDefault();
    box.focus();
    box.select();
  }
});

// Sorting by a column's header and filtering by the search box; the pages read well without it.
(function () {
  "use strict";
  function key(cell, numeric) {
    var raw = cell.getAttribute("data-sort");
    if (!numeric) return cell.textContent.trim().toLowerCase();
    var value = parseFloat(raw !== null ? raw : cell.textContent.replace("−", "-"));
    return isNaN(value) ? null : value;
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    table.querySelectorAll("thead th").forEach(function (th) {
      var button = th.querySelector("button");
      if (!button) return;
      button.addEventListener("click", function () {
        var numeric = th.getAttribute("data-type") === "number";
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        table.querySelectorAll("thead th").forEach(function (other) { other.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = key(a.cells[th.cellIndex], numeric), y = key(b.cells[th.cellIndex], numeric);
          if (x === y) return 0;
          if (x === null || x === "") return 1;   // empty cells last either way
          if (y === null || y === "") return -1;
          // text as a reader orders it (ё with е, m0009 before m0010), numbers as numbers
          var order = numeric ? (x < y ? -1 : 1) : String(x).localeCompare(String(y), undefined, {numeric: true});
          return order * (ascending ? 1 : -1);
        });
        rows.forEach(function (row) { body.appendChild(row); });
      });
    });
  });
  var search = document.getElementById("search");
  if (search) {
    search.addEventListener("input", function () {
      var query = search.value.trim().toLowerCase();
      document.querySelectorAll("table.searchable tbody tr").forEach(function (row) {
        row.hidden = query !== "" && row.textContent.toLowerCase().indexOf(query) < 0;
      });
    });
  }
}());

#include "viz/html_page.h"

#include <fmt/format.h>

#include "viz/svg/svg.h"

namespace hwsim::html {

namespace {
using svg::escape;

constexpr const char* kStyle = R"(
body{font-family:sans-serif;margin:24px;color:#222;max-width:1100px}
h1{font-size:20px}h2{font-size:16px;margin-top:28px}
table{border-collapse:collapse;font-size:12px}
td,th{padding:3px 8px;border-bottom:1px solid #e3e3e3;text-align:right}
td:first-child,th:first-child{text-align:left}
table.summary td{text-align:left}table.summary td:first-child{color:#555}
table.kernels th{cursor:pointer;background:#f4f4f4;position:sticky;top:0}
table.kernels td.t{text-align:left}
.note{color:#666;font-size:12px}
figure{margin:12px 0}
)";

// Click a header: sort by that column (numbers by data-v, text otherwise); again: reverse.
constexpr const char* kScript = R"(
document.querySelectorAll('table.kernels th').forEach(function(th, col) {
  th.addEventListener('click', function() {
    var body = th.closest('table').tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var dir = th.dataset.dir === 'asc' ? -1 : 1;
    th.dataset.dir = dir === 1 ? 'asc' : 'desc';
    rows.sort(function(a, b) {
      var x = a.cells[col], y = b.cells[col];
      var u = x.dataset.v, v = y.dataset.v;
      if (u !== undefined && v !== undefined) return dir * (parseFloat(u) - parseFloat(v));
      return dir * x.textContent.localeCompare(y.textContent);
    });
    rows.forEach(function(r) { body.appendChild(r); });
  });
});
document.body.setAttribute('data-ready', '1');
)";

}  // namespace

std::string page(const std::string& title, const std::string& body) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + escape(title) +
         "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n<h1>" + escape(title) + "</h1>\n" + body +
         "<script>" + kScript + "</script>\n</body>\n</html>\n";
}

std::string row(const std::string& name, const std::string& value) {
  return fmt::format("<tr><td>{}</td><td>{}</td></tr>\n", escape(name), escape(value));
}

std::string number_cell(double v, const std::string& shown) {
  return fmt::format("<td data-v=\"{:.9g}\">{}</td>", v, escape(shown));
}

std::string text_cell(const std::string& text) { return "<td class=\"t\">" + escape(text) + "</td>"; }

std::string figure(const std::string& svg_text, const std::string& caption) {
  return "<figure>" + svg_text + "<figcaption class=\"note\">" + escape(caption) + "</figcaption></figure>\n";
}

}  // namespace hwsim::html

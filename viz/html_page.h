#pragma once
// The pieces every self-contained HTML page of hwsim shares (viz/html_report.cpp for a run,
// viz/kernel_html.cpp for a kernel program): the page shell with its inline CSS and the few lines
// of script that sort a table.kernels by a clicked column, summary rows, sortable number cells,
// and a figure around an inline SVG. Nothing fetched, no external file.
#include <string>

namespace hwsim::html {

// <!DOCTYPE html> … <h1>title</h1> body, then the sorting script (sets body[data-ready] when done).
std::string page(const std::string& title, const std::string& body);
// A row of a table.summary: name, value (both escaped).
std::string row(const std::string& name, const std::string& value);
// A cell sorted by `v` (data-v), showing `shown`.
std::string number_cell(double v, const std::string& shown);
// A left-aligned text cell.
std::string text_cell(const std::string& text);
// An SVG element in a <figure> with its caption.
std::string figure(const std::string& svg_text, const std::string& caption);

}  // namespace hwsim::html

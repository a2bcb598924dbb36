// Help text laid out for an 80-column terminal: a name column, then the
// description wrapped under itself.
#include "help_text.h"

#include <cctype>
#include <sstream>

namespace hlograph::cli {
namespace {

constexpr size_t kWidth = 80;
constexpr size_t kOptionColumn = 21;   // where option descriptions start
constexpr size_t kCommandColumn = 17;  // where command summaries start

constexpr const char* kFileNote =
    "FILE is MLIR text (several modules may be separated by lines '// -----') or a portable artifact (VHLO "
    "bytecode, .mlirbc); '-' as FILE reads it from standard input.";
constexpr const char* kExitStatus =
    "Exit status: 0 on success, 1 on an error in the program or its data, 2 on bad usage.";

// `text` wrapped at word boundaries: the first line continues `head` (padded
// to `column`, or followed by two spaces when longer), the others start at
// `column`.
std::string Wrap(const std::string& head, const std::string& text, size_t column) {
  std::string out = head;
  if (head.size() + 2 <= column) {
    out.append(column - head.size(), ' ');
  } else if (!head.empty()) {
    out += "  ";
  }
  size_t line_begin = 0;
  bool line_empty = true;  // nothing of `text` on this line yet
  std::istringstream words(text);
  std::string word;
  while (words >> word) {
    if (!line_empty && out.size() - line_begin + 1 + word.size() > kWidth) {
      out += '\n';
      line_begin = out.size();
      out.append(column, ' ');
      line_empty = true;
    }
    if (!line_empty) out += ' ';
    out += word;
    line_empty = false;
  }
  return out + "\n";
}

std::string OptionHead(const OptionSpec& o) { return "  " + o.name + (o.value.empty() ? "" : " " + o.value); }

std::string Capitalized(std::string s) {
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

bool HasOptions(const CommandSpec& command) {
  for (const OptionSpec& o : OptionSpecs()) {
    if (TakesOption(command, o)) return true;
  }
  return false;
}

}  // namespace

std::string CommandUsage(const CommandSpec& command) {
  return "usage: hlograph " + command.name + " FILE" + (HasOptions(command) ? " [options]" : "") + "\n";
}

std::string GeneralHelp() {
  std::string out =
      "hlograph: compile and run StableHLO programs\n\n"
      "usage: hlograph COMMAND [options] FILE\n"
      "       hlograph COMMAND --help     (that command's options)\n\n"
      "commands:\n";
  for (const CommandSpec& c : Commands()) out += Wrap("  " + c.name + " FILE", c.summary, kCommandColumn);
  out += "\noptions:\n";
  for (const OptionSpec& o : OptionSpecs()) {
    std::string takers;
    for (const std::string& c : o.commands) takers += (takers.empty() ? "" : ", ") + c;
    out += Wrap(OptionHead(o), takers + (o.gpu_only ? " (GPU): " : ": ") + o.help, kOptionColumn);
  }
  out += Wrap("  -h, --help", "show this help; after a command, that command's help", kOptionColumn);
  out += Wrap("  --version", "show the version", kOptionColumn);
  out += '\n';
  out += Wrap("", kFileNote, 0);
  out += Wrap("", kExitStatus, 0);
  return out;
}

std::string CommandHelp(const CommandSpec& command) {
  std::string out = CommandUsage(command) + "\n" + Wrap("", Capitalized(command.summary) + ".", 0) + "\n";
  out += "options:\n";
  for (const OptionSpec& o : OptionSpecs()) {
    if (TakesOption(command, o)) out += Wrap(OptionHead(o), (o.gpu_only ? "(GPU) " : "") + o.help, kOptionColumn);
  }
  out += Wrap("  -h, --help", "show this help", kOptionColumn);
  out += '\n';
  out += Wrap("", kFileNote, 0);
  out += Wrap("", kExitStatus, 0);
  return out;
}

}  // namespace hlograph::cli

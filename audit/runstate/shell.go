// Package runstate owns what a command line runs and the states claimed
// for runs and tasks: a shell line cut into its commands, each named by
// the program it starts and sorted into the kinds of run it is (tests,
// build, deploy); the outcome a tool result reports for a run; and the
// status claims of prose and todo lists ("tests pass", "Test and
// validate: completed"). Its functions are pure, read only what they are
// given, and know nothing of the ledger or of findings.
package runstate

import (
	"iter"
	"path"
	"strings"

	"github.com/compaudit/compaudit/audit/lex"
)

// How a shell command line is read: cut into the commands it runs, each
// named by the program it starts. The rules that ask whether a call only
// looked (readOnlyCommand) and what runs it holds (runsOf) share it.

// ShellCommands yields each command a command line runs, in order. The
// body of a here-document is text, not commands, when the command that
// opens it runs nothing (cat > t.py <<'EOF' writes a file), and is passed
// over; fed to a shell or an interpreter (bash <<EOF) its lines are read
// as commands.
func ShellCommands(line string) iter.Seq[string] {
	return func(yield func(string) bool) {
		delim := ""
		for rest, sep := line, byte('\n'); sep != 0; {
			var cmd string
			cmd, rest, sep = NextCommand(rest)
			if !yield(cmd) {
				return
			}
			if d := heredocDelimiter(cmd); d != "" && delim == "" && runsNothing(Program(cmd), cmd) {
				delim = d
			}
			if sep == '\n' && delim != "" {
				if rest, delim = skipHeredoc(rest, delim), ""; rest == "" {
					return
				}
			}
		}
	}
}

// NextCommand cuts the first command of a command line from the rest: at
// ||, &&, |, ; or the end of a line, outside quotes. sep is what cut it:
// '\n' for the end of a line (or a comment), 0 when nothing is left, else
// the separator's first byte. Quotes are followed so that `grep -E "a|b"`
// or a commit message of several lines stays one command; a lone &
// backgrounds, it does not chain.
func NextCommand(line string) (cmd, rest string, sep byte) {
	var quote byte
	for i := 0; i < len(line); {
		if quote != 0 {
			stops := "'"
			if quote == '"' {
				stops = `"\`
			}
			j := strings.IndexAny(line[i:], stops)
			if j < 0 {
				break
			}
			if i += j; line[i] == '\\' {
				i += 2
			} else {
				quote, i = 0, i+1
			}
			continue
		}
		j := strings.IndexAny(line[i:], "|&;\n'\"\\#")
		if j < 0 {
			break
		}
		i += j
		switch c := line[i]; c {
		case '\\': // an escaped byte, or a line continued
			i += 2
		case '\'', '"':
			quote, i = c, i+1
		case '#':
			// a comment runs to the end of the line; mid-word (a#b) it is text
			if i > 0 && line[i-1] != ' ' && line[i-1] != '\t' {
				i++
				continue
			}
			end := strings.IndexByte(line[i:], '\n')
			if end < 0 {
				return line[:i], "", 0
			}
			return line[:i], line[i+end+1:], '\n'
		case '\n', ';':
			return line[:i], line[i+1:], c
		case '|', '&':
			if i+1 < len(line) && line[i+1] == c {
				return line[:i], line[i+2:], c
			}
			if c == '|' {
				return line[:i], line[i+1:], c
			}
			i++
		}
	}
	return line, "", 0
}

// heredocDelimiter is the word that ends the here-document a command
// opens (cat > t.py <<'EOF'), or "". A << inside quotes opens none.
func heredocDelimiter(cmd string) string {
	i := unquotedIndex(cmd, "<<")
	if i < 0 || strings.HasPrefix(cmd[i:], "<<<") {
		return ""
	}
	w := strings.TrimLeft(cmd[i+2:], "- \t")
	w = strings.TrimLeft(w, `'"`)
	if end := strings.IndexAny(w, "'\" \t;|&)<>"); end >= 0 {
		w = w[:end]
	}
	// a word, not a shift: $((1 << 3))
	if w == "" || !(w[0] == '_' || w[0] >= 'A' && w[0] <= 'Z' || w[0] >= 'a' && w[0] <= 'z') {
		return ""
	}
	return w
}

// unquotedIndex is strings.Index of sub in s outside quotes, or -1.
func unquotedIndex(s, sub string) int {
	var quote byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			quote = c
		case strings.HasPrefix(s[i:], sub):
			return i
		}
	}
	return -1
}

// skipHeredoc drops the lines of a here-document from rest, through the
// line that holds only delim.
func skipHeredoc(rest, delim string) string {
	for rest != "" {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if strings.TrimSpace(line) == delim {
			break
		}
	}
	return rest
}

// shellScript is the command line a command hands on to be run: the
// script of a shell's -c (`bash -lc "cd app && npm test"`, `docker compose
// exec web sh -c 'pytest -q'`) or the remote command of ssh (`ssh deploy@web
// 'cd /srv/app && ./deploy.sh'`), unquoted. Its words are a command line
// of their own.
func shellScript(cmd string) (string, bool) {
	if !strings.Contains(cmd, "sh") {
		return "", false
	}
	w := ShellWords(cmd, true)
	for i := 0; i+2 < len(w); i++ {
		switch path.Base(w[i]) {
		case "sh", "bash", "zsh", "dash", "ksh":
			if f := w[i+1]; len(f) > 1 && f[0] == '-' && f[1] != '-' && strings.Contains(f, "c") {
				return w[i+2], true
			}
		case "ssh":
			// past the options, and the values of those that take one, the
			// host; the words after it are the remote command
			for j := i + 1; j < len(w); j++ {
				if o := w[j]; len(o) == 2 && o[0] == '-' && strings.IndexByte(sshValueOptions, o[1]) >= 0 {
					j++
				} else if o == "" || o[0] != '-' {
					if j+1 < len(w) {
						return strings.Join(w[j+1:], " "), true
					}
					break
				}
			}
		}
	}
	return "", false
}

// sshValueOptions are ssh's one-letter options that take a value.
const sshValueOptions = "BbcDEeFIiJLlmOoPpQRSWw"

// ShellWords splits a command into its words as a shell does, escapes
// removed; what a quote leaves open runs to the end. With quoted, the text
// inside quotes is kept, unquoted; without, it is left out: a commit
// message or a task's title is an argument's text, not the command's words.
func ShellWords(cmd string, quoted bool) []string {
	var words []string
	var b strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote != 0:
			switch {
			case c == quote:
				quote = 0
			case c == '\\' && quote == '"' && i+1 < len(cmd) && strings.IndexByte(`"\$`+"`", cmd[i+1]) >= 0:
				i++
				if quoted {
					b.WriteByte(cmd[i])
				}
			case quoted:
				b.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == '\\' && i+1 < len(cmd):
			i++
			b.WriteByte(cmd[i])
			in = true
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				words = append(words, b.String())
				b.Reset()
			}
			in = false
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, b.String())
	}
	return words
}

// Program is a command's fields from the program it starts: past VAR=value,
// and past sudo, env, time and the like with their flags and timeout's
// duration. An assignment of a command's output, OUT=$(npm test 2>&1),
// runs that command, and its exit status is the command's: its fields
// Start inside the $( (read as the shell's test, it was no run at all).
func Program(cmd string) []string {
	f := strings.Fields(cmd)
	for wrapped := false; len(f) > 0; f = f[1:] {
		w := f[0]
		if i := strings.Index(w, "=$("); i > 0 && strings.IndexByte(w[:i], '=') < 0 {
			inner := w[i+3:]
			if len(f) == 1 { // X=$(date): the word holds the whole command
				inner = strings.TrimSuffix(inner, ")")
			}
			if inner != "" {
				return append([]string{inner}, f[1:]...)
			}
			return f[1:]
		}
		wrapper := runWrappers[programName(w)]
		if !wrapper && strings.IndexByte(w, '=') <= 0 && !(wrapped && (w[0] == '-' || w[0] >= '0' && w[0] <= '9')) {
			break
		}
		wrapped = wrapped || wrapper
	}
	return f
}

// runWrappers run the command that follows them.
var runWrappers = lex.ToSet(`sudo env time nohup nice timeout command exec`)

// runsNothing reports a command, f its program's fields, that only reads,
// edits or moves files. The shell's `[` checks files, as `test` (a
// read-only program) does; they run no tests.
func runsNothing(f []string, cmd string) bool {
	return len(f) == 0 || f[0] == "[" || f[0] == "[[" || notRunPrograms[programName(f[0])] && !gitDeploy(f) ||
		readOnlySegment(f, cmd)
}

// gitDeploy reports a git push to a remote that deploys what it receives:
// Heroku's and Dokku's, or one named for an environment (git push heroku
// main, git push -f production HEAD:master).
func gitDeploy(f []string) bool {
	if len(f) < 3 || programName(f[0]) != "git" || f[1] != "push" {
		return false
	}
	for _, a := range f[2:] {
		if a[0] != '-' { // the remote is the first argument not a flag
			return deployRemotes[a]
		}
	}
	return false
}

// deployRemotes are git remotes a push to which deploys.
var deployRemotes = lex.ToSet(`heroku dokku production prod staging live`)

// programName is the name a command's program goes by: /usr/bin/env is
// env. A relative path (bin/test, ./scripts/cat) is a file of the project,
// not the system's program of that name, and goes by none: "".
func programName(w string) string {
	if strings.IndexByte(w, '/') > 0 {
		return ""
	}
	return path.Base(w)
}

// notRunPrograms change files or the shell and run nothing named in their
// arguments; the programs that only read are readOnlySegment's.
var notRunPrograms = lex.ToSet(`cd pushd popd export unset alias mkdir rmdir rm cp mv touch chmod chown ln tee
vi vim nano emacs code git sleep kill pkill apply_patch`)

// ReadOnlyCommand reports a shell command every command of which only
// reads: listing a forbidden bucket is not deploying to it.
func ReadOnlyCommand(cmd string) bool {
	cmd = strings.TrimSpace(cmd)
	if cmd == "" || strings.ContainsAny(cmd, ">`$") && !strings.Contains(cmd, "2>&1") {
		return false
	}
	for seg := range ShellCommands(cmd) {
		// env FOO=1 ./deploy.sh runs the deploy: judge the program a
		// wrapper starts, not the wrapper
		if f := Program(seg); len(f) > 0 && !readOnlySegment(f, seg) {
			return false
		}
	}
	return true
}

// readOnlySegment reports whether one command, cmd split into its fields
// f, only reads.
func readOnlySegment(f []string, cmd string) bool {
	prog := programName(f[0])
	if readOnlyPrograms[prog] {
		return prog != "sed" || !strings.Contains(cmd, " -i")
	}
	subs, ok := readOnlySub[prog]
	if !ok {
		return false
	}
	for _, w := range f[1:] {
		if strings.HasPrefix(w, "-") {
			continue
		}
		// aws s3 ls, aws s3api list-object-versions, aws ec2 describe-instances
		if subs[w] || prog == "aws" && (strings.HasPrefix(w, "list-") || strings.HasPrefix(w, "describe-") ||
			strings.HasPrefix(w, "get-") || strings.HasPrefix(w, "head-")) {
			return true
		}
		if prog != "aws" {
			return false
		}
	}
	return false
}

// readOnlyPrograms only look.
var readOnlyPrograms = lex.ToSet(`ls cat head tail less more grep rg ag find fd wc du df stat file tree pwd echo printf
which whereis type printenv date whoami id uname jq yq diff cmp sort uniq cut tr awk sed column test true`)

// readOnlySub are subcommands that only look.
var readOnlySub = map[string]map[string]bool{
	"git":     lex.ToSet(`status log diff show branch remote rev-parse ls-files blame describe shortlog reflog`),
	"aws":     lex.ToSet(`ls`),
	"kubectl": lex.ToSet(`get describe logs top explain version`),
	"gh":      lex.ToSet(`view list status`),
	"docker":  lex.ToSet(`ps images logs inspect`),
	"npm":     lex.ToSet(`ls list view outdated`),
}

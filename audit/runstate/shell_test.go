package runstate_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/audit/runstate"
)

// commandsOf splits a command line with nextCommand.
func commandsOf(line string) []string {
	var out []string
	for rest, sep := line, byte('\n'); sep != 0; {
		var seg string
		seg, rest, sep = runstate.NextCommand(rest)
		out = append(out, seg)
	}
	return out
}

// TestNextCommand: a command line is cut at ||, &&, |, ; and the end of a
// line, but not at a lone &, nor inside quotes or a comment.
func TestNextCommand(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string
	}{
		{"ls", []string{"ls"}},
		{"", []string{""}},
		{"aws s3 ls s3://b && aws s3 rm s3://b/x", []string{"aws s3 ls s3://b ", " aws s3 rm s3://b/x"}},
		{"a||b|c;d", []string{"a", "b", "c", "d"}},
		{"sleep 1 & ls", []string{"sleep 1 & ls"}},
		{"a &&& b", []string{"a ", "& b"}},
		{"a|||b", []string{"a", "", "b"}},
		{"end;", []string{"end", ""}},
		{"x &", []string{"x &"}},
		{"ls\nrm -rf build", []string{"ls", "rm -rf build"}},
		{`grep -E "prod|staging" deploy.yaml | wc -l`, []string{`grep -E "prod|staging" deploy.yaml `, " wc -l"}},
		{"echo 'a;b' ; ls", []string{"echo 'a;b' ", " ls"}},
		{"git commit -m \"fix\n\nand test\" && git push", []string{"git commit -m \"fix\n\nand test\" ", " git push"}},
		{`echo "say \"a|b\"" | cat`, []string{`echo "say \"a|b\"" `, " cat"}},
		{`echo \; ls`, []string{`echo \; ls`}},
		{"ls # list; rm x\npwd", []string{"ls ", "pwd"}},
		{"echo a#b; ls", []string{"echo a#b", " ls"}},
		{"# only a comment", []string{""}},
		{`echo "open | x`, []string{`echo "open | x`}},
		{`echo 'a\' | cat`, []string{`echo 'a\' `, " cat"}},
	} {
		if got := commandsOf(c.line); !slices.Equal(got, c.want) {
			t.Errorf("commands of %q = %q, want %q", c.line, got, c.want)
		}
	}
}

// FuzzNextCommand holds nextCommand, on lines without quotes, escapes or
// comments, to the regular expression that splits at every separator; on
// any line, the commands it cuts come from the line in order.
func FuzzNextCommand(f *testing.F) {
	for _, s := range []string{"a||b|c;d", "x & y && z", "a|||b;;", "&|;", "cat f | sed -i s/a/b/ f",
		"ls\nrm x", `grep "a|b" f`, "echo 'x;y' # z\nls", `a \| b`} {
		f.Add(s)
	}
	separators := regexp.MustCompile(`\|\||&&|\||;|\n`)
	f.Fuzz(func(t *testing.T, line string) {
		got := commandsOf(line)
		if !strings.ContainsAny(line, `'"\#`) {
			if want := separators.Split(line, -1); !slices.Equal(got, want) {
				t.Fatalf("commands of %q = %q, want %q", line, got, want)
			}
		}
		at := 0
		for _, seg := range got {
			i := strings.Index(line[at:], seg)
			if i < 0 {
				t.Fatalf("commands of %q = %q: %q is not in the line after byte %d", line, got, seg, at)
			}
			at += i + len(seg)
		}
	})
}

// TestReadOnlyCommand: a call only looks when every command it runs does;
// quotes, lines and here-documents are read as the shell reads them.
func TestReadOnlyCommand(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want bool
	}{
		{"ls -la", true},
		{"aws s3 ls s3://prod-assets/releases/", true},
		{"git log --oneline -5 && git status", true},
		{`grep -E "prod|staging" deploy.yaml | wc -l`, true},
		{"cat README.md\nls docs/", true},
		{"cat <<'EOF'\nrm -rf build\nEOF", true},
		{"sed -n '1,40p' src/app.ts 2>&1", true},
		{"", false},
		{"ls\nrm -rf build", false},
		{"ls; rm -rf build", false},
		{"sed -i 's/a/b/' src/app.ts", false},
		{"aws s3 rm s3://prod-assets/old.zip", false},
		{"cat notes.txt > out.txt", false},
		{"kubectl apply -f k8s/", false},
		{"bash <<'EOF'\nrm -rf build\nEOF", false},
		{`grep -E "a|b" x | xargs rm`, false},
		{"env AWS_PROFILE=prod ./deploy.sh", false},
		{"/usr/bin/env AWS_PROFILE=prod ./deploy.sh", false},
		{"env", true},
		{"sudo rm -rf /var/www/old", false},
		{"LC_ALL=C sort -u names.txt", true},
		{"timeout 10 tail -n 50 app.log", true},
	} {
		if got := runstate.ReadOnlyCommand(c.cmd); got != c.want {
			t.Errorf("readOnlyCommand(%q) = %v, want %v", c.cmd, got, c.want)
		}
	}
}

// FuzzShellCommands: any command line is cut into commands taken from it
// in order, and a line that only reads runs nothing.
func FuzzShellCommands(f *testing.F) {
	for _, s := range []string{"ls -la", "cd api && npx jest --ci", "cat > t.py <<'EOF'\nimport pytest\nEOF\nnpm test",
		`grep -E "a|b" f | wc -l`, "env FOO=1 ./deploy.sh", "*** Begin Patch\n*** End Patch", "echo $((1 << 3))\nmake",
		"git commit -m \"$(cat <<'EOF'\nfix\nEOF\n)\" && go test ./...", "a\\\nb # c\nd"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		at := 0
		for cmd := range runstate.ShellCommands(line) {
			i := strings.Index(line[at:], cmd)
			if i < 0 {
				t.Fatalf("shellCommands(%q) yields %q, not in the line after byte %d", line, cmd, at)
			}
			at += i + len(cmd)
		}
		if r := runstate.RunsOf(line); runstate.ReadOnlyCommand(line) && r.Any() {
			t.Fatalf("%q only reads, yet runs %v", line, r.OutcomeKinds(runstate.StatusDone, false))
		}
	})
}

// TestShellWords: words as the shell splits them, quotes and escapes gone.
func TestShellWords(t *testing.T) {
	for _, c := range []struct {
		cmd        string
		want, bare []string
	}{
		{`bash -lc "cd app && npm test"`, []string{"bash", "-lc", "cd app && npm test"}, []string{"bash", "-lc", ""}},
		{`sh -c 'echo "$HOME"' x`, []string{"sh", "-c", `echo "$HOME"`, "x"}, []string{"sh", "-c", "", "x"}},
		{`a\ b "c \"d\" \n" ''`, []string{"a b", `c "d" \n`, ""}, []string{"a b", "", ""}},
		{"  tab\tsep\nline  ", []string{"tab", "sep", "line"}, []string{"tab", "sep", "line"}},
		{`open "quote`, []string{"open", "quote"}, []string{"open", ""}},
		{`bd close x-1 --reason="Done; tests pass"`, []string{"bd", "close", "x-1", "--reason=Done; tests pass"}, []string{"bd", "close", "x-1", "--reason="}},
		{"", nil, nil},
	} {
		if got := runstate.ShellWords(c.cmd, true); !slices.Equal(got, c.want) {
			t.Errorf("shellWords(%q, true) = %q, want %q", c.cmd, got, c.want)
		}
		if got := runstate.ShellWords(c.cmd, false); !slices.Equal(got, c.bare) {
			t.Errorf("shellWords(%q, false) = %q, want %q", c.cmd, got, c.bare)
		}
	}
}

// TestProgram: a command's fields start at the program it runs, past
// assignments and wrappers, and inside an assignment's $( ).
func TestProgram(t *testing.T) {
	for _, c := range []struct{ cmd, want string }{
		{"npm test", "npm test"},
		{"CI=1 timeout 300 npm test", "npm test"},
		{"sudo -E ./scripts/deploy.sh prod", "./scripts/deploy.sh prod"},
		{"/usr/bin/env AWS_PROFILE=prod ./deploy.sh", "./deploy.sh"},
		{"OUT=$(npm test 2>&1)", "npm test 2>&1)"},
		{"RESULT=$( pytest -q )", "pytest -q )"},
		{"NOW=$(date)", "date"},
		{"X=$()", ""},
	} {
		if got := strings.Join(runstate.Program(c.cmd), " "); got != c.want {
			t.Errorf("program(%q) = %q, want %q", c.cmd, got, c.want)
		}
	}
}

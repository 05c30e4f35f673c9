package check

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/arbiter-eval/arbiter/internal/input"
)

// Skipped is a transcript file left out of a run by --skip-bad, with its first problem.
type Skipped struct {
	File  string `json:"file"`
	Error string `json:"error"`
}

// BadFilesError refuses a set of transcript files of which some are bad: each bad file
// once, with its first problem, and nothing judged (spec section 1).
type BadFilesError struct {
	// Bad holds one problem a bad file.
	Bad *ValidationError
	// Files is how many files were read, good and bad.
	Files int
}

func (e *BadFilesError) Error() string {
	bad := len(e.Bad.Errs) + e.Bad.More
	var last string
	if good := e.Files - bad; good > 0 {
		last = fmt.Sprintf("%d of %d transcript files are bad, so nothing was judged: fix them, or pass --skip-bad to judge the other %d", bad, e.Files, good)
	} else {
		last = fmt.Sprintf("all %d transcript files are bad: nothing to judge", e.Files)
	}
	return e.Bad.Error() + "\n" + last
}

// Unwrap returns the problems: the error is bad input, like a *ValidationError.
func (e *BadFilesError) Unwrap() error { return e.Bad }

// LoadTranscripts reads transcripts from files and directories with the default
// ReadOptions, refusing them all when any file is bad (see LoadTranscriptsWith).
func LoadTranscripts(paths ...string) ([]*Transcript, error) {
	ts, _, err := LoadTranscriptsWith(paths, ReadOptions{}, false)
	return ts, err
}

// LoadTranscriptsWith reads transcripts from files and directories (every .json, .jsonl,
// .txt and .log file directly inside); "builtin" names the bundled sample trials. A
// transcript whose trial_id an earlier one has makes its file bad. When a file is bad,
// nothing is returned but the problems: all of them when only one file was read, else a
// *BadFilesError naming each bad file once with its first problem. With skipBad, the good
// files' transcripts come back and the bad files are listed in skipped instead.
func LoadTranscriptsWith(paths []string, opt ReadOptions, skipBad bool) (ts []*Transcript, skipped []Skipped, err error) {
	files, err := readPaths(paths, opt)
	if err != nil {
		return nil, nil, err
	}
	var firsts input.Errors
	for _, f := range files {
		if f.err == nil {
			ts = append(ts, f.ts...)
			continue
		}
		if len(files) == 1 && !skipBad {
			return nil, nil, f.err
		}
		fe := firstProblem(f.err)
		firsts.Add(fe)
		skipped = append(skipped, Skipped{File: f.file, Error: problemText(fe)})
	}
	if len(skipped) > 0 && (!skipBad || len(ts) == 0) {
		var ve *ValidationError
		errors.As(firsts.Err(), &ve)
		return nil, nil, &BadFilesError{Bad: ve, Files: len(files)}
	}
	if len(ts) == 0 {
		return nil, nil, fmt.Errorf("no transcripts in %s", strings.Join(paths, ", "))
	}
	return ts, skipped, nil
}

// firstProblem is a bad file's first problem, saying how many more it has.
func firstProblem(err error) FieldError {
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Errs) == 0 {
		return FieldError{Msg: err.Error()}
	}
	fe := ve.Errs[0]
	if more := len(ve.Errs) - 1 + ve.More; more > 0 {
		fe.Msg += fmt.Sprintf(" (and %d more %s in this file: 'arbiter check transcripts' lists them all)", more, plural(more, "problem", "problems"))
	}
	return fe
}

// problemText is a problem without its file: "line 3: turn 2: speaker: …".
func problemText(fe FieldError) string {
	var b strings.Builder
	if fe.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", fe.Line)
	}
	if fe.Field != "" {
		b.WriteString(fe.Field + ": ")
	}
	b.WriteString(fe.Msg)
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// fileRead is one transcript file as read: its transcripts, or its problems.
type fileRead struct {
	file   string
	format TranscriptFormat
	ts     []*Transcript
	// err is the file's problems, a *ValidationError; the file has no transcripts then.
	err error
}

// readPaths reads every transcript file of paths, good or bad. A transcript whose
// trial_id an earlier good file has makes its own file bad. The error is for what stops
// the reading itself: a path that does not exist, a folder without transcripts, a file
// given by name whose extension is not a transcript's.
func readPaths(paths []string, opt ReadOptions) ([]fileRead, error) {
	var out []fileRead
	for _, p := range paths {
		if p == "builtin" {
			out = append(out, fileRead{file: "builtin", format: FormatJSON, ts: BuiltinTranscripts()})
			continue
		}
		files, err := transcriptFiles(p)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			format, err := TranscriptFormatOf(f)
			if err != nil {
				return nil, err
			}
			fr := fileRead{file: f, format: format}
			data, err := input.ReadFile(context.Background(), f)
			if err == nil {
				fr.ts, err = ParseTranscriptsWith(data, f, format, opt)
			}
			var ve *ValidationError
			if err != nil && !errors.As(err, &ve) {
				return nil, err
			}
			fr.err = err
			out = append(out, fr)
		}
	}
	seen := map[TrialID]*Transcript{}
	for i := range out {
		f := &out[i]
		if f.err != nil {
			continue
		}
		var errs input.Errors
		mine := map[TrialID]*Transcript{}
		for _, t := range f.ts {
			first, ok := seen[t.TrialID]
			if !ok {
				first, ok = mine[t.TrialID]
			}
			if ok {
				errs.Add(FieldError{File: t.Source, Field: "trial_id",
					Msg: fmt.Sprintf("%q is also the trial_id of %s: give every transcript its own", t.TrialID, first.Source)})
				continue
			}
			mine[t.TrialID] = t
		}
		if err := errs.Err(); err != nil {
			f.ts, f.err = nil, err
			continue
		}
		maps.Copy(seen, mine)
	}
	return out, nil
}

func transcriptFiles(p string) ([]string, error) {
	info, err := input.Stat(p)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{p}, nil
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return nil, input.Problem(p, 0, "", "cannot list the folder: %v", errors.Unwrap(err))
	}
	var files []string
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		if _, err := TranscriptFormatOf(e.Name()); err == nil {
			files = append(files, filepath.Join(p, e.Name()))
		}
	}
	if len(files) == 0 {
		return nil, input.Problem(p, 0, "", "the folder has no .json, .jsonl or .txt files")
	}
	return files, nil
}

package input

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"syscall"
	"unicode/utf8"
)

// bom is the UTF-8 byte order mark some editors put at the start of a text file.
var bom = []byte("\ufeff")

// Open opens an input file for reading. It follows symlinks and refuses, without
// blocking, anything but a regular file: a FIFO would wait forever for a writer and a
// device such as /dev/zero never ends. Every error is a *ValidationError naming the
// file, so a missing, unreadable or unsuitable file is bad input like any other.
func Open(path string) (*os.File, error) {
	// O_NONBLOCK keeps opening a FIFO from waiting for a writer; it does nothing to a
	// regular file, and the file is refused before any read if it is not one.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, openProblem(path, err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, openProblem(path, err)
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, Problem(path, 0, "", "%s, not a regular file: give a file", kindOf(info.Mode()))
	}
	return f, nil
}

// Stat returns what a path names, following symlinks, with Open's errors: use it to
// tell a directory of inputs from a file.
func Stat(path string) (fs.FileInfo, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, openProblem(path, err)
	}
	return info, nil
}

func openProblem(path string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Problem(path, 0, "", "no such file")
	case errors.Is(err, fs.ErrPermission):
		return Problem(path, 0, "", "permission denied: the file cannot be read")
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return Problem(path, 0, "", "cannot open: %v", err)
}

func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// ReadFile opens path with Open and reads it with ReadAll.
func ReadFile(ctx context.Context, path string) ([]byte, error) {
	return readFile(ctx, path, MaxFileBytes)
}

func readFile(ctx context.Context, path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(ctx, f, path, limit)
}

// chunk is how much is read between two looks at the context.
const chunk = 64 << 10

// ReadAll reads r whole; name labels errors. It stops at the first line longer than
// MaxLineBytes or once more than MaxFileBytes have come, checks ctx between chunks,
// strips a leading byte order mark and refuses text that is not UTF-8, naming the line.
// Problems with the text are a *ValidationError; a cancelled ctx returns ctx.Err().
func ReadAll(ctx context.Context, r io.Reader, name string) ([]byte, error) {
	return readAll(ctx, r, name, MaxFileBytes)
}

func readAll(ctx context.Context, r io.Reader, name string, limit int64) ([]byte, error) {
	var data []byte
	buf := make([]byte, chunk)
	line, lineLen := 1, 0
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		n, err := r.Read(buf)
		for rest := buf[:n]; ; {
			i := bytes.IndexByte(rest, '\n')
			if i < 0 {
				lineLen += len(rest)
			} else {
				lineLen += i
			}
			if lineLen > MaxLineBytes {
				return nil, Problem(name, line, "", "line longer than %s", sizeText(MaxLineBytes))
			}
			if i < 0 {
				break
			}
			line, lineLen, rest = line+1, 0, rest[i+1:]
		}
		if int64(len(data)+n) > limit {
			return nil, Problem(name, 0, "", "larger than %s", sizeText(limit))
		}
		data = append(data, buf[:n]...)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, Problem(name, 0, "", "read: %v", err)
		}
	}
	data = bytes.TrimPrefix(data, bom)
	if err := CheckUTF8(name, data); err != nil {
		return nil, err
	}
	return data, nil
}

// CheckUTF8 reports the first line of data that is not UTF-8, as a *ValidationError.
func CheckUTF8(name string, data []byte) error {
	if utf8.Valid(data) {
		return nil
	}
	line := 1
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		l := data
		if i >= 0 {
			l, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if !utf8.Valid(l) {
			return Problem(name, line, "", "not UTF-8 text (save the file as UTF-8)")
		}
		line++
	}
	return nil
}

func sizeText(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Line is one line of a stream: its 1-based number and its text, without the line break
// (a "\r" before it is removed too) and, on line 1, without a byte order mark.
type Line struct {
	N    int
	Text []byte
}

// Lines reads r line by line with ReadAll's checks: a line over MaxLineBytes, text that
// is not UTF-8 or more than MaxFileBytes in all yield one *ValidationError and end the
// sequence, and so does a cancelled ctx (with ctx.Err()). A line's Text is valid only
// until the next one.
func Lines(ctx context.Context, r io.Reader, name string) iter.Seq2[Line, error] {
	return func(yield func(Line, error) bool) {
		br := bufio.NewReaderSize(r, chunk)
		var total int64
		var long []byte
		for n := 1; ; n++ {
			if err := ctx.Err(); err != nil {
				yield(Line{}, err)
				return
			}
			text, err := readLine(br, &long)
			total += int64(len(text)) + 1
			switch {
			case errors.Is(err, errLongLine):
				yield(Line{}, Problem(name, n, "", "line longer than %s", sizeText(MaxLineBytes)))
				return
			case err != nil && err != io.EOF:
				yield(Line{}, Problem(name, n, "", "read: %v", err))
				return
			case total > MaxFileBytes:
				yield(Line{}, Problem(name, 0, "", "larger than %s", sizeText(MaxFileBytes)))
				return
			}
			if err == io.EOF && len(text) == 0 {
				return
			}
			if n == 1 {
				text = bytes.TrimPrefix(text, bom)
			}
			text = bytes.TrimSuffix(text, []byte("\r"))
			if !utf8.Valid(text) {
				yield(Line{}, Problem(name, n, "", "not UTF-8 text (save the file as UTF-8)"))
				return
			}
			if !yield(Line{N: n, Text: text}, nil) || err == io.EOF {
				return
			}
		}
	}
}

var errLongLine = errors.New("line too long")

// readLine returns the next line without its "\n", never holding more than
// MaxLineBytes of it; long is scratch space reused between calls.
func readLine(br *bufio.Reader, long *[]byte) ([]byte, error) {
	frag, err := br.ReadSlice('\n')
	if err == nil {
		return frag[:len(frag)-1], nil
	}
	if err != bufio.ErrBufferFull {
		return frag, err
	}
	*long = append((*long)[:0], frag...)
	for {
		frag, err = br.ReadSlice('\n')
		if len(*long)+len(frag) > MaxLineBytes+1 {
			return nil, errLongLine
		}
		*long = append(*long, frag...)
		switch err {
		case nil:
			return (*long)[:len(*long)-1], nil
		case bufio.ErrBufferFull:
			continue
		}
		return *long, err
	}
}

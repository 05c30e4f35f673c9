package procmem

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"testing"
)

// rssFile is the process's resident pages of files (its executable, shared libraries),
// in kilobytes.
func rssFile(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if rest, ok := bytes.CutPrefix(sc.Bytes(), []byte("RssFile:")); ok {
			kb, err := strconv.ParseInt(string(bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte("kB")))), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb
		}
	}
	t.Fatal("no RssFile in /proc/self/status")
	return 0
}

// The test binary has run its start-up and the testing package: Release unmaps what
// that touched of the executable, and the program goes on running (the pages come back
// from the page cache as they are used).
func TestReleaseUnmapsExecutablePages(t *testing.T) {
	before := rssFile(t)
	advised, err := Release()
	if err != nil {
		t.Fatal(err)
	}
	after := rssFile(t)
	if advised == 0 {
		t.Fatal("Release advised no mapping of the executable")
	}
	if after >= before {
		t.Fatalf("resident file pages %d kB before Release, %d kB after: nothing was given back", before, after)
	}
	t.Logf("resident file pages: %d kB before, %d kB after", before, after)
	// Code and data still read as before.
	var buf bytes.Buffer
	for i := range 1000 {
		buf.WriteString(strconv.Itoa(i))
	}
	if buf.Len() != 2890 {
		t.Fatalf("wrote %d bytes, want 2890", buf.Len())
	}
}

func TestParseMapping(t *testing.T) {
	dev := mkdev(0xfd, 0x01)
	for _, c := range []struct {
		line  string
		ok    bool
		write bool
	}{
		{"00400000-01fc6000 r-xp 00000000 fd:01 1234 /tmp/arbiter", true, false},
		{"04dff000-05622000 rw-p 049ff000 fd:01 1234 /tmp/arbiter", true, true},
		{"04dff000-05622000 rw-p 049ff000 fd:01 1234 /tmp/arbiter (deleted)", true, true},
		{"7f00-8f00 r--p 00000000 fd:01 999 /usr/lib/libc.so.6", false, false},
		{"7f00-8f00 r--p 00000000 fd:02 1234 /other/disk/same/inode", false, false},
		{"05622000-07894000 rw-p 00000000 00:00 0", false, false},
		{"garbage", false, false},
		{"8f00-7f00 r--p 00000000 fd:01 1234 /tmp/arbiter", false, false},
	} {
		s, ok := parseMapping(c.line, dev, 1234)
		if ok != c.ok || (ok && s.writable != c.write) {
			t.Errorf("parseMapping(%q) = %+v, %v; want ok %v, writable %v", c.line, s, ok, c.ok, c.write)
		}
	}
}

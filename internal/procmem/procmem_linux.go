package procmem

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Release unmaps the process's pages of its own executable and returns how many bytes
// of mappings it advised. Read-only mappings (code, read-only data, the function
// tables) are dropped (MADV_DONTNEED: their content is the file's, read again from the
// page cache when used); writable ones are only offered for reclaim (MADV_PAGEOUT: the
// kernel takes back the pages still equal to the file and keeps every page the process
// wrote). It changes no value the program can see.
func Release() (int64, error) {
	var exe syscall.Stat_t
	if err := syscall.Stat("/proc/self/exe", &exe); err != nil {
		return 0, err
	}
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var spans []span
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		s, ok := parseMapping(sc.Text(), uint64(exe.Dev), exe.Ino)
		if ok {
			spans = append(spans, s)
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	var advised int64
	for _, s := range spans {
		advice := syscall.MADV_DONTNEED
		if s.writable {
			advice = madvPageout
		}
		if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, s.start, s.end-s.start, uintptr(advice)); errno != 0 {
			if errno == syscall.EINVAL && s.writable {
				continue // a kernel before 5.4 knows no MADV_PAGEOUT
			}
			return advised, fmt.Errorf("procmem: madvise %#x-%#x: %w", s.start, s.end, errno)
		}
		advised += int64(s.end - s.start)
	}
	return advised, nil
}

// madvPageout is MADV_PAGEOUT (Linux 5.4), which package syscall does not name.
const madvPageout = 21

// span is one mapping of the executable.
type span struct {
	start, end uintptr
	writable   bool
}

// parseMapping reads one line of /proc/self/maps ("start-end perms offset dev inode
// path") and says whether it maps the file of device dev and inode ino.
func parseMapping(line string, dev, ino uint64) (span, bool) {
	fields := strings.Fields(line)
	if len(fields) < 6 {
		return span{}, false
	}
	if n, err := strconv.ParseUint(fields[4], 10, 64); err != nil || n != ino {
		return span{}, false
	}
	major, minor, ok := strings.Cut(fields[3], ":")
	if !ok {
		return span{}, false
	}
	maj, err1 := strconv.ParseUint(major, 16, 32)
	mnr, err2 := strconv.ParseUint(minor, 16, 32)
	if err1 != nil || err2 != nil || mkdev(maj, mnr) != dev {
		return span{}, false
	}
	lo, hi, ok := strings.Cut(fields[0], "-")
	if !ok {
		return span{}, false
	}
	start, err1 := strconv.ParseUint(lo, 16, 64)
	end, err2 := strconv.ParseUint(hi, 16, 64)
	if err1 != nil || err2 != nil || end <= start {
		return span{}, false
	}
	return span{start: uintptr(start), end: uintptr(end), writable: strings.Contains(fields[1], "w")}, true
}

// mkdev packs a device number as the kernel's stat does (glibc's gnu_dev_makedev).
func mkdev(major, minor uint64) uint64 {
	return (major&0xfff)<<8 | (major&^0xfff)<<32 | minor&0xff | (minor&^0xff)<<12
}

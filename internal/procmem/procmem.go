// Package procmem gives back to the kernel the pages of the running executable that the
// process no longer uses.
//
// A Go binary's start-up runs every linked package's initialisation: hundreds of
// functions spread over the whole text, and the type data, tables and embedded files
// they read. The kernel maps each page touched, and the pages around it that are in the
// page cache (fault-around, 64 KB at a time, or a whole large folio for a file just
// written), so a run of arbiter held some 30 MB of its own executable that nothing after
// start-up reads again: the SDKs', gRPC's and the plotting fonts' initialisation among
// them. Those pages stay in the page cache (they are the file's, shared with every other
// process running it); Release only unmaps them from this process, and a page used again
// is mapped again from the cache at the cost of a minor fault.
package procmem

import "sync"

var once sync.Once

// ReleaseStartup is Release for main, once the linked packages are initialised. Its
// error is not reported: a mapping left in place changes nothing the program sees, only
// what it holds resident.
func ReleaseStartup() {
	_, _ = Release()
}

// ReleaseOnce is ReleaseStartup the first time it is called in a process: a runner calls
// it when its set-up is done and asking begins, and a process that runs many times (a
// server, a worker) gives the pages back once, not at every run.
func ReleaseOnce() {
	once.Do(ReleaseStartup)
}

//go:build !linux

package cmd

// preferHugePages does nothing where transparent huge pages are not
// Linux's to give.
func preferHugePages(int) {}

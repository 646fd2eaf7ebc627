//go:build !race

package cmd

// raceDetector says the tests run with -race, whose shadow memory takes
// page faults of its own for every heap page touched.
const raceDetector = false

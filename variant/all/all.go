// Package all registers every variant refereed plays.
// Import it for its side effect; a new variant adds one line here, its sentences in
// templates/words, and nothing elsewhere: it declares in its Register what a spectator may
// see, its private queries and its typed options, and its tests hold it to the referee's
// contract by mail (referee/refereetest), as variant/toy shows.
package all

import (
	_ "github.com/refereed/refereed/variant/conditional"
	_ "github.com/refereed/refereed/variant/kriegspiel"
	_ "github.com/refereed/refereed/variant/orthodox"
	_ "github.com/refereed/refereed/variant/progressive"
	_ "github.com/refereed/refereed/variant/synchronous"
	_ "github.com/refereed/refereed/variant/trainwreck"
	_ "github.com/refereed/refereed/variant/transactional"
)

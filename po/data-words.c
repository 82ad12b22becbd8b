/* po/data-words.c: the words of the games' data a person reads (card
 * sets: colour symbols, deck ids and labels, command labels and their
 * short forms, units; rulebook credits), listed for xgettext: the
 * programs translate them where they show them (sticker sheets, the
 * window's buttons, the About window).  Not compiled.  Generated from
 * every registered game's data by tests/engine/test-contract-data.c,
 * which fails while this file is out of date and writes the new one to
 * build/tests/engine/data-words.c. */

/* Katua: data/cards/katua.set */
ENG_N_ ("flame")
ENG_N_ ("drop")
ENG_N_ ("sun")
ENG_N_ ("star")
ENG_C_ ("deck", "cat")
ENG_N_ ("Cat deck (dark blue back)")
ENG_C_ ("deck", "ufo")
ENG_N_ ("UFO deck (white back)")
ENG_N_ ("End of turn")
ENG_N_ ("Undo last step")
ENG_N_ ("Confirm")
ENG_N_ ("Cancel")
ENG_N_ ("Pass (K3: play nothing this turn)")
ENG_N_ ("Pass")
ENG_N_ ("Discard face down (K3: discard UFO cards, ends the turn)")
ENG_N_ ("Discard face down")
ENG_N_ ("No defence (let the attack resolve)")
ENG_N_ ("No defence")
ENG_N_ ("New game")
ENG_N_ ("Pause / resume the referee")
ENG_N_ ("José Román and Rodrigo González (game design)")
ENG_N_ ("Mar Martitegui (art)")
ENG_N_ ("Buscalume, Ourense (publisher) https://www.buscalume.com")

/* Catchy!: data/cards/catchy.set */
ENG_N_ ("circle")
ENG_N_ ("triangle")
ENG_N_ ("square")
ENG_C_ ("deck", "main")
ENG_N_ ("Catchy! deck")
ENG_C_ ("deck", "mood")
ENG_N_ ("Mood card (two-sided, no back)")
ENG_N_ ("End of trick")
ENG_N_ ("Yuko Y (game design)")
ENG_N_ ("Javier Fernández (Spanish translation)")

/* Exploding Kittens: data/cards/kittens.set */
ENG_N_ ("Exploding Kittens deck")
ENG_N_ ("Drew a card")
ENG_N_ ("No Nope: go on")
ENG_N_ ("Elan Lee, Matthew Inman and Shane Small (game design)")
ENG_N_ ("Exploding Kittens (publisher) https://www.explodingkittens.com")

/* Escoba: data/cards/escoba.set */
ENG_N_ ("Spanish deck (40 cards)")
ENG_N_ ("End of turn (no capture: the card stays on the table)")
ENG_N_ ("Traditional Spanish card game: no publisher owns it")
ENG_N_ ("Rules summary: the Tablero developers")

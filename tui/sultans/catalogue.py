"""The Sultans of Karaya table's messages, English and Traditional Chinese.

Added to the catalogue (:func:`protocol.i18n.add_catalogue`, in ``tui/__init__``) so that ``t(key, lang)``
finds them; every key starts with ``sk.``. Card names appear only as card
*values* (through :func:`tui.sultans.words.card_label`, always bracketed);
other texts here avoid naming cards so that a screen shows a card name only
where the seat's view knows that card (the leak tests rely on it), except
the rules texts of the help and the own-card panel.
"""

from __future__ import annotations

SULTANS_EN: dict[str, str] = {
    # cards (full / short), sides
    "sk.card.sultan": "Sultan",
    "sk.card.guard": "Guard",
    "sk.card.assassin": "Assassin",
    "sk.card.slave": "Slave",
    "sk.card.slave-driver": "Slave Driver",
    "sk.card.belly-dancer": "Belly Dancer",
    "sk.card.vizier": "Vizier",
    "sk.card.fortune-teller": "Fortune Teller",
    "sk.short.sultan": "Sultan",
    "sk.short.guard": "Guard",
    "sk.short.assassin": "Assassin",
    "sk.short.slave": "Slave",
    "sk.short.slave-driver": "Driver",
    "sk.short.belly-dancer": "Dancer",
    "sk.short.vizier": "Vizier",
    "sk.short.fortune-teller": "Teller",
    "sk.side.loyalists": "Loyalists",
    "sk.side.rebels": "Rebels",
    "sk.side.none": "no side",
    "sk.spare": "Spare",
    "sk.seat": "{name} ({n})",
    "sk.seat_you": "{name} ({n}, you)",
    "sk.the_spare": "the spare",
    # tokens (short, shown in seat boxes) and their meaning (legend)
    "sk.tok.detained": "#jail",
    "sk.tok.captured": "&caught",
    "sk.tok.exhausted": "~tired",
    "sk.tok.must_hide": "must hide",
    "sk.tok.bot": "bot",
    "sk.tok.away": "offline",
    "sk.tok.autoplay": "bot plays",
    "sk.tok.standin": "away",
    "sk.tok.left": "left",
    "sk.tok.declared": "for {side}",
    "sk.tok.predicted": "bets {side}",
    "sk.legend": (
        "▶ turn  ● pending  ▒ face down  [ ] Loyalist card  < > Rebel card  ( ) Neutral card  "
        "? note  ¬ not that card  ?? note may be stale"
    ),
    # header
    "sk.head.round": "Round {n}/{of}",
    "sk.log.round": "Round {n}",
    "sk.head.round_first_to": "Round {n} · first to {to}",
    "sk.head.turn": "turn {n}/{limit}",
    "sk.head.you": "you are {seat}",
    "sk.head.watching": "watching (public view)",
    "sk.head.score": "score {points}",
    # own card panel
    "sk.own.title": "Your card",
    "sk.own.title_short": "You",
    "sk.own.face_up": "face up",
    "sk.own.face_down": "face down",
    "sk.own.spectator": "You are watching: every card hidden from the players is hidden from you until the round ends.",
    "sk.own.dead": "You are dead: no turns, no reactions, no points this round.",
    "sk.own.nothing": "Nothing to do now.",
    # status of the turn
    "sk.status.your_turn": "▶ Your turn: choose one thing to do.",
    "sk.status.extra": "▶ Extra turn: choose one thing to do.",
    "sk.status.forced": "▶ You are manipulated: you must use your card's action.",
    "sk.status.predict": "▶ Predict which side wins this round.",
    "sk.status.turn_of": "{who} is playing.",
    "sk.status.forced_of": "{who} was manipulated and must use an action.",
    "sk.status.predict_of": "{who} is predicting the winners.",
    "sk.status.between": "Round {n} is over: F4 shows its result again.",
    "sk.status.match_over": "The host may play again or change the settings.",
    "sk.status.match_over_you": "Stay for the next match, or Esc: back to the lobby.",
    "sk.status.match_over_host": "The match is over. Press p to play again, or o to change the settings.",
    "sk.status.detained": "You are in prison: your next turn is skipped.",
    "sk.status.captured": "You are captured: you skip your turns until freed.",
    "sk.status.exhausted": "You are exhausted: no action of your card on your next turn.",
    "sk.status.sent": "Sent: {what}",
    "sk.status.refused": "✗ {msg}",
    # reaction windows (same text for everyone asked)
    "sk.win.block": "⚠ {actor} attacks {target}! Anyone who may block can block now.",
    "sk.win.join": "⚠ {actor} calls to revolt! Anyone who may join can join now.",
    "sk.win.detention": "⚠ {actor} detains {target}. {target} may refuse or accept.",
    # the same windows read by their target
    "sk.win.block.you": "⚠ {actor} attacks you! Anyone who may block can block now.",
    "sk.win.detention.you": "⚠ {actor} detains you. You may refuse or accept.",
    "sk.win.detention.you_accept": "⚠ {actor} detains you: you skip your next turn (only the Sultan or a Guard may refuse).",
    "sk.win.waiting": "waiting for {n} of {of}",
    "sk.win.answered": "You answered: {answer}.",
    "sk.win.not_asked": "You are not asked.",
    "sk.win.nothing": "Nothing to answer: the window closes by itself.",
    "sk.win.kept": "You answered; the window closes when its time is up.",
    "sk.countdown": "⏱ {s}s",
    # action kinds: key bar labels
    "sk.key.peek": "Peek",
    "sk.key.swap": "Swap",
    "sk.key.hide": "Hide",
    "sk.key.execute": "Execute",
    "sk.key.detain": "Detain",
    "sk.key.assassinate": "Assassinate",
    "sk.key.revolt": "Revolt",
    "sk.key.capture": "Capture",
    "sk.key.dance": "Dance",
    "sk.key.manipulate": "Manipulate",
    "sk.key.foresee": "Foresee",
    "sk.key.predict": "Predict",
    "sk.key.block": "Block",
    "sk.key.join": "Join",
    "sk.key.refuse": "Refuse",
    "sk.key.claim": "Claim throne",
    "sk.key.pass": "Pass",
    "sk.key.accept": "Accept",  # a pass, to a detention
    "sk.key.chat": "Chat",
    "sk.key.pane": "Log/Notes",
    "sk.key.confirm": "Confirm",
    "sk.key.cancel": "Back",
    "sk.key.leave": "Leave",
    "sk.key.chat_done": "Back to the game",  # Esc while typing in the chat line
    "sk.key.chat_send": "Send",
    "sk.key.help": "Help",
    "sk.key.lang": "中文",
    "sk.key.again": "Play again",
    "sk.key.reopen": "Settings",
    # plain words: what an action will do
    "sk.do.peek": "Look at {target}'s card. Everyone sees whom you looked at; only you see the card.",
    "sk.do.swap": "Swap your card with {target}'s. Everyone sees the swap; you both see your new cards.",
    "sk.do.swap_spare": "Swap your card with the spare in the centre. Everyone sees the swap.",
    "sk.do.hide": "Turn your card face down and keep it. Others see only that you hid and may have swapped.",
    "sk.do.hide_swap": "Turn your card face down and secretly swap it with {target}'s. Others see only that you hid.",
    "sk.do.hide_swap_spare": "Turn your card face down and secretly swap it with the spare. Others see only that you hid.",
    "sk.do.execute": "Reveal and execute {target}: that seat dies.",
    "sk.do.detain": "Reveal and detain {target}: their next turn is skipped unless they refuse.",
    "sk.do.assassinate": "Reveal and kill {target}, unless someone blocks.",
    "sk.do.revolt": "Reveal and call to revolt: others may join you.",
    "sk.do.capture": "Reveal and capture {target} (a hidden seat that is not a slave only shows that).",
    "sk.do.dance": "Reveal and dance: guards next to you can neither detain nor block.",
    "sk.do.manipulate": "Reveal, declare for the {side}, and force {target} to reveal and use its action.",
    "sk.do.foresee": "Reveal and look at the cards of {targets}; then predict the winners.",
    "sk.do.predict": "Predict that the {side} win this round (public).",
    "sk.do.block": "Reveal and block the attack: the attacker dies instead.",
    "sk.do.join": "Reveal and join the revolt.",
    "sk.do.refuse": "Refuse the detention (reveals your card if hidden).",
    "sk.do.claim": "Claim the throne: reveal your card; the crown goes before the active seat.",
    "sk.do.pass": "Do not react.",
    "sk.do.accept": "Accept the detention.",
    # the same, by a seat whose card is face up already (nothing to reveal)
    "sk.do.execute.open": "Execute {target}: that seat dies.",
    "sk.do.detain.open": "Detain {target}: their next turn is skipped unless they refuse.",
    "sk.do.assassinate.open": "Kill {target}, unless someone blocks.",
    "sk.do.revolt.open": "Call to revolt: others may join you.",
    "sk.do.capture.open": "Capture {target} (a hidden seat that is not a slave only shows that).",
    "sk.do.dance.open": "Dance: guards next to you can neither detain nor block.",
    "sk.do.manipulate.open": "Declare for the {side}, and force {target} to reveal and use its action.",
    "sk.do.foresee.open": "Look at the cards of {targets}; then predict the winners.",
    "sk.do.block.open": "Block the attack: the attacker dies instead.",
    "sk.do.join.open": "Join the revolt.",
    # choosing
    "sk.pick.keys": "number/arrows pick · Enter sends · Esc back",
    "sk.pick.confirm": "Enter sends · Esc back",
    "sk.pick.more_digit": "Typed {d}…: a second digit picks a seat from 10 up.",
    "sk.pick.keys_side": "l/r or arrows pick · Enter sends · Esc back",
    "sk.pick.what.seat": "pick a seat",
    "sk.pick.what.seat_spare": "pick a seat or the spare (s)",
    "sk.pick.what.hide": "secret swap with a seat, spare (s) or none (n)",
    "sk.pick.what.side": "pick a side: l Loyalists, r Rebels",
    "sk.pick.what.seats": "pick {k} seats (numbers, or arrows + space)",
    "sk.pick.seats_left": "{n} more to pick: Foresee looks at {k} seats",
    "sk.pick.chosen": "Chosen {n}/{k}",
    "sk.pick.no_swap": "no swap",
    "sk.pick.side_then_seat": "Declare for the {side}, then pick a seat to manipulate.",
    "sk.pick.options": "Your options:",
    # notebook
    "sk.notes.empty": "Nothing learned yet.",
    "sk.notes.round_over": "The round is over: these are your notes as they stood; the result (Tab) shows every card.",
    "sk.notes.line": "{where} = {card}  ({how}, turn {turn})",
    "sk.notes.not": "not {card}",
    "sk.notes.fresh": "fresh",
    "sk.notes.stale": "may have moved since turn {turn}",
    "sk.how.peek": "peeked",
    "sk.how.swap": "swap",
    "sk.how.hide-swap": "secret swap",
    "sk.how.foresee": "foreseen",
    "sk.how.revealed": "seen face up",
    "sk.how.not-slave": "failed capture",
    "sk.how.dealt": "dealt",
    # log
    "sk.log.private": "◆",
    "sk.side.letter.loyalists": "L",
    "sk.side.letter.rebels": "R",
    "sk.centre.crown_at": "♛ before {who}",
    "sk.centre.crown_centre": "♛ in the centre",
    "sk.brief.sultan": "Execute a revealed rebel · claim the throne · refuse detention",
    "sk.brief.guard": "Detain a seat · block an attack next to you · refuse detention",
    "sk.brief.assassin": "Assassinate any seat (may be blocked)",
    "sk.brief.slave": "Call to revolt · join a revolt · 3 side by side win",
    "sk.brief.slave-driver": "Capture a slave (hidden: extra turn if right)",
    "sk.brief.belly-dancer": "Dance: guards next to you cannot detain or block",
    "sk.brief.vizier": "Declare a side, force a hidden seat to act",
    "sk.brief.fortune-teller": "Foresee 3 hidden cards, predict the winners",
    "sk.own.now_keys": "Now: {keys}",
    "sk.legend.private": "◆ a private line: only you see it",
    "sk.legend.tokens": "# prison  & captured  ~ exhausted  ♛ crown  ✝ dead  →L/→R declared side  =L/=R prediction",
    "sk.pick.hint_seat": "Actions on {who}: {keys}",
    "sk.status.click_none": "Nothing you can do with {who} now.",
    "sk.log.turn": "t{n}",
    "sk.ev.round-start": "Round starts; {who} plays first.",
    "sk.ev.deal": "You were dealt {card}.",
    "sk.ev.turn": "{who}'s turn.",
    "sk.ev.turn_extra": "{who} takes an extra turn.",
    "sk.ev.turn_you": "Your turn.",
    "sk.ev.turn_extra_you": "You take an extra turn.",
    "sk.ev.skip.detained": "{who} is in prison: turn skipped, prison token removed.",
    "sk.ev.skip.captured": "{who} is captured: turn skipped.",
    "sk.ev.peek": "{who} peeked at {target}.",
    "sk.ev.peek-result": "You saw: {target} holds {card}.",
    "sk.ev.swap": "{who} swapped with {target}.",
    "sk.ev.new-card": "You now hold {card}.",
    "sk.ev.hide": "{who} hid and may have swapped.",
    "sk.ev.hide-swap": "{who} hid and swapped with {target}.",
    "sk.ev.reveal": "{who} revealed {card}{cause}.",
    "sk.ev.claim": "{who} claims the throne!",
    "sk.ev.crown": "The crown is put before {target}.",
    "sk.ev.crown_back": "The crown goes back to the centre.",
    "sk.ev.execute": "{who} executes {target}.",
    "sk.ev.death": "{who} dies ({cause}); the card was {card}.",
    "sk.ev.detain": "{who} detains {target}.",
    "sk.ev.refuse": "{who} refuses the detention.",
    "sk.ev.detained": "{who} gets the prison token.",
    "sk.ev.assassinate": "{who} attacks {target}!",
    "sk.ev.window.block": "Block window: {n} seats are asked.",
    "sk.ev.window.join": "Revolt window: {n} seats are asked.",
    "sk.ev.window.detention": "{target} is asked to refuse or accept.",
    "sk.ev.answer": "You answered: {answer}.",
    "sk.ev.block": "{who} blocks the attack by {target}!",
    "sk.ev.block-unused.hidden": "Your block was not needed: {target} blocked first; your card stays hidden.",
    "sk.ev.block-unused.revealed": "Your block was not needed: {target} blocked first.",
    "sk.ev.revolt": "{who} calls to revolt!",
    "sk.ev.join": "Joined the revolt: {seats}.",
    "sk.ev.join_none": "Nobody joined the revolt.",
    "sk.ev.capture": "{who} tries to capture {target}.",
    "sk.ev.captured": "{target} is captured by {who}.",
    "sk.ev.not-slave": "{target} does not hold a slave card.",
    "sk.ev.extra-turn": "{who} earns an extra turn.",
    "sk.ev.release": "Captives freed: {seats}.",
    "sk.ev.dance": "{who} dances!",
    "sk.ev.manipulate": "{who} declares for the {side} and manipulates {target}.",
    "sk.ev.forced": "{who} must now use an action.",
    "sk.ev.exhausted": "{who} is exhausted.",
    "sk.ev.foresee": "{who} looks into the future of {seats}.",
    "sk.ev.foresee-result": "You saw: {pairs}.",
    "sk.ev.predict": "{who} predicts the {side} win.",
    "sk.ev.win": "The {side} win: {reason}.",
    "sk.ev.turn-limit": "The turn limit is reached: nobody wins this round.",
    "sk.ev.round-end": "All cards are shown; the spare was {card}.",
    "sk.cause.claim": " (claim)",
    "sk.cause.refuse": " (refusing detention)",
    "sk.cause.block": " (blocking)",
    "sk.cause.join": " (joining the revolt)",
    "sk.cause.manipulated": " (manipulated)",
    "sk.cause.captured": " (captured)",
    "sk.death.executed": "executed",
    "sk.death.assassinated": "assassinated",
    "sk.death.blocked": "blocked",
    "sk.answer.pass": "pass",
    "sk.answer.block": "block",
    "sk.answer.join": "join",
    "sk.answer.refuse": "refuse",
    "sk.answer.accept": "accept the detention",
    "sk.reason.sultan-killed": "the Sultan was killed",
    "sk.reason.revolution": "three free revealed slaves sit side by side",
    "sk.reason.no-rebels": "no assassin is left and fewer than three slaves are free",
    "sk.reason.crown": "the crown came round with the Sultan alive and revealed",
    "sk.reason.turn-limit": "the turn limit was reached",
    "sk.nobody": "nobody",
    # round end, match end
    "sk.end.title": "Round {n} result",
    "sk.end.winner": "{side} win: {reason}.",
    "sk.end.nowinner": "No winner: {reason}.",
    "sk.end.points": "Points this round",
    "sk.end.trails": "Where the cards went",
    "sk.end.trail_step": "t{turn} {where}",
    "sk.end.dead": "dead",
    "sk.end.hidden": "hidden",
    "sk.end.revealed": "revealed",
    "sk.match.title": "Match result",
    "sk.match.so_far": "Scores so far",
    "sk.match.after": "Scores after round {n}",
    "sk.match.champion": "★ MATCH WINNER: {names}, {total} points",
    "sk.match.champions": "★ MATCH WINNERS (shared): {names}, {total} points each",
    "sk.match.standings": "Standings: {list}",
    "sk.match.last_round": "Last round ({n}): {text}",
    "sk.match.total": "Total",
    "sk.match.round_col": "R{n}",
    "sk.match.winners": "Winners: {names}",
    "sk.match.winner": "Winner: {names}",
    "sk.tb.sole-highest": "{names} scored the most points ({total}).",
    "sk.tb.latest-two": "Tied on {total}: {names} scored 2 points most recently (round {round}).",
    "sk.tb.shared-same-round": "Tied on {total} and last scored 2 points in the same round ({round}): they share the win.",
    "sk.tb.shared-no-two": "Tied on {total} and none ever scored 2 points: they share the win.",
    "sk.match.again_host": "p: play again with the same seats · o: change the settings",
    "sk.match.again_wait": "The host may start another match with the same seats or change the settings. Stay to keep your seat, or go back to the lobby with Esc at the table.",
    "sk.match.again_watch": "The host may start another match with the same seats or change the settings. Stay to watch it, or go back to the lobby with Esc at the table.",
    "sk.pane.log": "Log",
    "sk.pane.notes": "Notebook",
    "sk.pane.result": "Result",
    "sk.pane.title": "{pane}  (Tab)",
    "sk.no_view": "The match has not started yet.",
    # help
    "sk.help.title": "Sultans of Karaya: help",
    "sk.help.your_card": "Your card: {card}",
    "sk.help.no_card": "You hold no card (watching).",
    "sk.help.keys_title": "Keys at this table",
    "sk.help.keys": (
        "p peek · s swap (hidden) / hide (revealed) · x execute · d detain · a assassinate · "
        "r revolt · g capture · n dance · m manipulate · f foresee · l/r predict side · "
        "b block · j join · u refuse · o pass · c claim the throne (only if you hold it hidden).\n"
        "After a key: pick a seat by its number (seats count from 1; two digits from 10 up) or with the arrows "
        "(s = the spare, n = no swap when hiding), Enter confirms, Escape backs out. "
        "Clicking a seat picks it too. Nothing is played for you unless the room's timer runs out; "
        "then the room plays the default: in a window a pass; on your turn a peek at the next hidden "
        "seat, else a swap with the spare or a hide; a forced seat its first action; a Fortune "
        "Teller's prediction Loyalists.\n"
        "t chat · Tab switches log / notebook / last result, PageUp/PageDown scroll it · "
        "F4 every finished round's result (← → another round) · F3 the whole log (/ searches it) · "
        "Enter after a round: go on (the next round is dealt once every player at the table did, "
        "or when the room's time between rounds has passed) · F1 help · F2 English/中文 · "
        "p play again, o change the settings first (host, after the match) · "
        "{leave}"
    ),
    "sk.help.legend_title": "Signs",
    "sk.help.states_title": "Tired, jailed, caught; which Guard blocks",
    "sk.help.states": (
        "~tired (exhausted): a seat the Vizier manipulated. On its next turn it may not use its card's Action; "
        "it may still peek, swap, or hide (with a secret swap). Its reactions are not stopped: a tired Guard "
        "still blocks an attack, a tired Sultan still claims the throne or refuses detention, a tired Slave "
        "still joins a revolt. The sign goes at the end of that next turn, even a skipped one.\n"
        "#jail (detained): the seat's next turn is skipped. &caught (captured by the Slave Driver): every turn "
        "is skipped while caught. A jailed or caught seat may not block or join a revolt; it may still claim "
        "the throne or refuse detention.\n"
        "When several Guards block one attack, the first of them clockwise from the Assassin's left blocks: "
        "counting up from the seat number after the Assassin's (after the last seat, seat 1). Only that Guard "
        "reveals and kills the Assassin; the others stay as they were."
    ),
    "sk.help.game_title": "The game",
    "sk.rules.sultan": (
        "Loyalist. Action Execute: kill a living, revealed Assassin or Slave (never a hidden seat, "
        "never a Neutral). Reaction Claim the Throne: whenever you hold it hidden you may reveal "
        "it (even outside your turn); the crown is put before the active seat and, when turn "
        "order comes back to that seat with you still alive and revealed, the Loyalists win. "
        "Reaction Refuse Detention."
    ),
    "sk.rules.guard": (
        "Loyalist. Action Detain: give another living seat the prison token; it skips its next "
        "turn. Reaction Block: when an Assassin next to you, or next to its target, attacks, "
        "reveal and the Assassin dies instead. Reaction Refuse Detention. A revealed Belly "
        "Dancer next to you stops your Detain and Block."
    ),
    "sk.rules.assassin": (
        "Rebel. Action Assassinate: kill any other living seat, hidden or revealed; a Guard "
        "next to you or to the target may block it. Killing the Sultan wins the round for the Rebels."
    ),
    "sk.rules.slave": (
        "Rebel. Action Call to Revolt: reveal. Reaction Join the Revolt: when a Slave calls, "
        "hidden free Slaves may reveal too. Three free, revealed Slaves side by side win the "
        "round for the Rebels."
    ),
    "sk.rules.slave-driver": (
        "Neutral: a Rebel while hidden, a Loyalist while revealed. Action Capture: put a capture "
        "token on a revealed Slave, or name a hidden seat: if it holds a Slave it is revealed "
        "and captured and you take an extra turn. Captives skip their turns until you hide or die."
    ),
    "sk.rules.belly-dancer": (
        "Neutral: a Loyalist while hidden, a Rebel while revealed. Action Dance (only while "
        "hidden): reveal; while you stay revealed, free and alive, Guards next to you can "
        "neither detain nor block."
    ),
    "sk.rules.vizier": (
        "Neutral. Action Manipulate: declare Loyalists or Rebels, then make a living, hidden, "
        "free seat reveal and use its card's action (it chooses the targets), then it is "
        "exhausted. Revealed, you are on the side you declared (fixed while revealed); hidden, "
        "you win 1 point if at the end you sit next to a seat scoring 2."
    ),
    "sk.rules.fortune-teller": (
        "Neutral. Action Foresee: look at three hidden seats' cards (fewer if fewer are hidden), "
        "then predict the winning side in public. On your next turn you must hide. Revealed "
        "with a right prediction you score 2; hidden you cannot win."
    ),
    # the game in the lobby, help and the settings dialog and line (tui/sultans/ui.py)
    "game.sultans": "Sultans of Karaya",
    "game.short.sultans": "Sultans",
    "sultans.opt.rounds": "Rounds",
    "sultans.opt.match": "Match",
    "sultans.opt.match.rounds": "a set number of rounds",
    "sultans.opt.match.first_to": "first to N points",
    "sultans.opt.first_to": "Points to win ({cap} rounds max)",
    "sultans.opt.first_to.hint": "1-{hi}",
    "sultans.opt.turn_limit": "Turn limit per round (min {lo})",
    "sultans.opt.notebook": "Notebook",
    "sultans.opt.notebook.box": "shows what you have seen",
    "sultans.form.first_to.needed": "First to N points: how many points win? A number from 1 to {hi}, please.",
    "sultans.form.turn_limit.min": "Turn limit per round: at least {lo} turns (house rule).",
    "summary.first_to": "first to {n} points (at most {cap} rounds)",
    "summary.first_to_one": "first to 1 point (at most {cap} rounds)",
    "summary.turn_limit": "turn limit {n}",
    "summary.notebook_on": "notebook on",
    "summary.notebook_off": "notebook off",
    "help.game.sultans": (
        "Every seat gets one face-down card; one spare card lies in the centre. Loyalists "
        "(Sultan, Guards) play against Rebels (Assassins, Slaves); the Neutrals (Slave Driver, "
        "Belly Dancer, Vizier, Fortune Teller) change side with their state.\n"
        "On your turn do exactly one thing: peek at a hidden seat's card; swap cards with a "
        "hidden seat or the spare (a revealed card first hides and may swap in secret); or use "
        "your card's action, which reveals it. If a seat's swap took your card, you may not swap with "
        "that seat until your next turn has ended.\n"
        "Actions: the Sultan executes a revealed Assassin or Slave; a Guard detains a seat (it "
        "skips its next turn); an Assassin kills any other seat; a Slave calls a revolt; the Slave "
        "Driver captures Slaves; the Belly Dancer dances (Guards next to her cannot detain or "
        "block); the Vizier declares a side and forces a hidden seat to act; the Fortune Teller "
        "looks at three cards and predicts the winning side.\n"
        "Reactions, on anyone's turn: a Guard next to the Assassin or the target blocks a "
        "killing; hidden free Slaves join a revolt; a Sultan or Guard refuses detention; whoever "
        "holds the hidden Sultan may claim the throne.\n"
        "Loyalists win when the crown comes round with the Sultan still alive and revealed, or "
        "when no Assassin is left and fewer than three Slaves are free. Rebels win by killing "
        "the Sultan, or when three free revealed Slaves sit side by side.\n"
        "Each living seat on the winning side scores 2 if revealed, 1 if hidden (the Vizier and the "
        "Fortune Teller by their own cards' rules). A match is 5 rounds unless the host "
        "sets another number or a points target; the most points wins.\n"
        "A killing or a revolt asks every other living seat (a detention only its target), so nobody "
        "learns who could have reacted. In quick windows (the default) the room passes for you when "
        "pass is all you may answer (your line says \"Nothing to answer\"), a window lasts at least its "
        "minimum time, and nobody sees who answered; in strict windows everyone answers. Answer pass "
        "(o, or n as in Kill the Overlord) when you do not react."
    ),
}

SULTANS_ZH: dict[str, str] = {
    "sk.card.sultan": "蘇丹",
    "sk.card.guard": "守衛",
    "sk.card.assassin": "刺客",
    "sk.card.slave": "奴隸",
    "sk.card.slave-driver": "奴隸販子",
    "sk.card.belly-dancer": "肚皮舞孃",
    "sk.card.vizier": "大官",
    "sk.card.fortune-teller": "占卜師",
    "sk.short.sultan": "蘇丹",
    "sk.short.guard": "守衛",
    "sk.short.assassin": "刺客",
    "sk.short.slave": "奴隸",
    "sk.short.slave-driver": "販子",
    "sk.short.belly-dancer": "舞孃",
    "sk.short.vizier": "大官",
    "sk.short.fortune-teller": "占卜",
    "sk.side.loyalists": "保皇黨",
    "sk.side.rebels": "革命軍",
    "sk.side.none": "無陣營",
    "sk.spare": "中央牌",
    "sk.seat": "{name}（{n}）",
    "sk.seat_you": "你（{n}）",
    "sk.the_spare": "中央牌",
    "sk.tok.detained": "#拘留",
    "sk.tok.captured": "&被捕",
    "sk.tok.exhausted": "~疲勞",
    "sk.tok.must_hide": "須隱藏",
    "sk.tok.bot": "電腦",
    "sk.tok.away": "離線",
    "sk.tok.autoplay": "電腦代打",
    "sk.tok.standin": "暫離",
    "sk.tok.left": "已退出",
    "sk.tok.declared": "支持{side}",
    "sk.tok.predicted": "預言{side}",
    "sk.legend": (
        "▶ 回合  ● 等待回應  ▒ 蓋牌  [ ] 保皇黨角色  < > 革命軍角色  ( ) 中立角色  ? 筆記  ¬ 不是那張  ?? 筆記可能已過時"
    ),
    "sk.head.round": "第 {n}/{of} 局",
    "sk.log.round": "第 {n} 局",
    "sk.head.round_first_to": "第 {n} 局 · 先到 {to} 分",
    "sk.head.turn": "回合 {n}/{limit}",
    "sk.head.you": "你是 {seat}",
    "sk.head.watching": "觀戰中（只看公開資訊）",
    "sk.head.score": "得分 {points}",
    "sk.own.title": "你的角色",
    "sk.own.title_short": "你",
    "sk.own.face_up": "公開",
    "sk.own.face_down": "隱藏",
    "sk.own.spectator": "你在觀戰：玩家看不到的牌，你在本局結束前也看不到。",
    "sk.own.dead": "你已死亡：本局沒有回合、不能回應、不得分。",
    "sk.own.nothing": "現在沒有可做的事。",
    "sk.status.your_turn": "▶ 輪到你了：選一件事做。",
    "sk.status.extra": "▶ 額外回合：選一件事做。",
    "sk.status.forced": "▶ 你被操弄了：必須使用角色的行動。",
    "sk.status.predict": "▶ 預言本局哪一方獲勝。",
    "sk.status.turn_of": "輪到 {who}。",
    "sk.status.forced_of": "{who} 被操弄，必須使用行動。",
    "sk.status.predict_of": "{who} 正在預言勝方。",
    "sk.status.between": "第 {n} 局結束：按 F4 再看本局結果。",
    "sk.status.match_over": "房主可以再來一場或更改設定。",
    "sk.status.match_over_you": "留下等下一場，或按 Esc 回到大廳。",
    "sk.status.match_over_host": "整場比賽結束。按 p 再來一場，或按 o 更改設定。",
    "sk.status.detained": "你被拘留了：下一個回合會被跳過。",
    "sk.status.captured": "你被捕捉了：被釋放前都會跳過回合。",
    "sk.status.exhausted": "你很疲勞：下一個回合不能使用角色行動。",
    "sk.status.sent": "已送出：{what}",
    "sk.status.refused": "✗ {msg}",
    "sk.win.block": "⚠ {actor} 行刺 {target}！可以阻止的人現在可以阻止。",
    "sk.win.join": "⚠ {actor} 登高一呼！可以投身革命的人現在可以加入。",
    "sk.win.detention": "⚠ {actor} 拘留 {target}。{target} 可以禁止或接受拘留。",
    "sk.win.block.you": "⚠ {actor} 行刺你！可以阻止的人現在可以阻止。",
    "sk.win.detention.you": "⚠ {actor} 拘留你。你可以禁止或接受拘留。",
    "sk.win.detention.you_accept": "⚠ {actor} 拘留你：你的下個回合被跳過（只有蘇丹或守衛可以禁止）。",
    "sk.win.waiting": "還在等 {n}/{of} 人",
    "sk.win.answered": "你已回應：{answer}。",
    "sk.win.not_asked": "這次不需要你回應。",
    "sk.win.nothing": "你沒有可以回應的：時機會自動結束。",
    "sk.win.kept": "你已回應；時間到時機就結束。",
    "sk.countdown": "⏱ {s}秒",
    "sk.key.peek": "調查",
    "sk.key.swap": "交換",
    "sk.key.hide": "隱藏",
    "sk.key.execute": "處決",
    "sk.key.detain": "拘留",
    "sk.key.assassinate": "行刺",
    "sk.key.revolt": "登高一呼",
    "sk.key.capture": "捕捉",
    "sk.key.dance": "肚皮舞",
    "sk.key.manipulate": "操弄",
    "sk.key.foresee": "預言",
    "sk.key.predict": "預測勝方",
    "sk.key.block": "阻止",
    "sk.key.join": "投身革命",
    "sk.key.refuse": "禁止拘留",
    "sk.key.claim": "宣示王權",
    "sk.key.pass": "不回應",
    "sk.key.accept": "接受拘留",
    "sk.key.chat": "聊天",
    "sk.key.pane": "紀錄/筆記",
    "sk.key.confirm": "確定",
    "sk.key.cancel": "返回",
    "sk.key.leave": "離開",
    "sk.key.chat_done": "回到遊戲",
    "sk.key.chat_send": "送出",
    "sk.key.help": "說明",
    "sk.key.lang": "English",
    "sk.key.again": "再來一場",
    "sk.key.reopen": "更改設定",
    "sk.do.peek": "調查 {target} 的角色。大家都知道你看了誰，只有你看到牌。",
    "sk.do.swap": "和 {target} 交換角色牌。大家都看得到交換，雙方都會看到新牌。",
    "sk.do.swap_spare": "和中央牌交換。大家都看得到交換。",
    "sk.do.hide": "把角色牌蓋起來、不交換。其他人只知道你隱藏了，可能換了牌。",
    "sk.do.hide_swap": "把角色牌蓋起來，並偷偷和 {target} 交換。其他人只知道你隱藏了。",
    "sk.do.hide_swap_spare": "把角色牌蓋起來，並偷偷和中央牌交換。其他人只知道你隱藏了。",
    "sk.do.execute": "公開身分並處決 {target}：該玩家死亡。",
    "sk.do.detain": "公開身分並拘留 {target}：除非對方禁止，否則跳過其下個回合。",
    "sk.do.assassinate": "公開身分並殺死 {target}，除非有人阻止。",
    "sk.do.revolt": "公開身分，登高一呼：其他人可以投身革命。",
    "sk.do.capture": "公開身分並捕捉 {target}（隱藏的非奴隸只會被公開「不是奴隸」）。",
    "sk.do.dance": "公開身分跳肚皮舞：你身邊的守衛不能拘留也不能阻止刺客。",
    "sk.do.manipulate": "公開身分，宣告支持{side}，強迫 {target} 公開並使用行動。",
    "sk.do.foresee": "公開身分，調查 {targets} 的角色，接著預言勝方。",
    "sk.do.predict": "公開預言本局由{side}獲勝。",
    "sk.do.block": "公開身分阻止行刺：刺客反被殺死。",
    "sk.do.join": "公開身分，投身革命。",
    "sk.do.refuse": "禁止拘留（若為隱藏會公開身分）。",
    "sk.do.claim": "宣示王權：公開你的角色，加冕牌放到目前主動玩家面前。",
    "sk.do.pass": "不回應。",
    "sk.do.accept": "接受拘留。",
    "sk.do.execute.open": "處決 {target}：該玩家死亡。",
    "sk.do.detain.open": "拘留 {target}：除非對方禁止，否則跳過其下個回合。",
    "sk.do.assassinate.open": "殺死 {target}，除非有人阻止。",
    "sk.do.revolt.open": "登高一呼：其他人可以投身革命。",
    "sk.do.capture.open": "捕捉 {target}（隱藏的非奴隸只會被公開「不是奴隸」）。",
    "sk.do.dance.open": "跳肚皮舞：你身邊的守衛不能拘留也不能阻止刺客。",
    "sk.do.manipulate.open": "宣告支持{side}，強迫 {target} 公開並使用行動。",
    "sk.do.foresee.open": "調查 {targets} 的角色，接著預言勝方。",
    "sk.do.block.open": "阻止行刺：刺客反被殺死。",
    "sk.do.join.open": "投身革命。",
    "sk.pick.keys": "數字/方向鍵選擇 · Enter 送出 · Esc 返回",
    "sk.pick.confirm": "Enter 送出 · Esc 返回",
    "sk.pick.more_digit": "已輸入 {d}…：再輸入一個數字可選 10 號以上的座位。",
    "sk.pick.keys_side": "l/r 或方向鍵選擇 · Enter 送出 · Esc 返回",
    "sk.pick.what.seat": "選一個座位",
    "sk.pick.what.seat_spare": "選座位或中央牌（s）",
    "sk.pick.what.hide": "偷偷交換的座位、中央牌（s）或不交換（n）",
    "sk.pick.what.side": "選陣營：l 保皇黨、r 革命軍",
    "sk.pick.what.seats": "選 {k} 個座位（號碼，或方向鍵加空白鍵）",
    "sk.pick.seats_left": "還要再選 {n} 個：預言要看 {k} 個座位",
    "sk.pick.chosen": "已選 {n}/{k}",
    "sk.pick.no_swap": "不交換",
    "sk.pick.side_then_seat": "宣告加入{side}，接著選要操弄的座位。",
    "sk.pick.options": "你的選擇：",
    "sk.notes.empty": "還沒有得知任何事。",
    "sk.notes.round_over": "這局已結束：以下是你當時的筆記；結果（Tab）列出每張牌。",
    "sk.notes.line": "{where} = {card}（{how}，回合 {turn}）",
    "sk.notes.not": "不是{card}",
    "sk.notes.fresh": "仍然有效",
    "sk.notes.stale": "回合 {turn} 後可能已換走",
    "sk.how.peek": "調查",
    "sk.how.swap": "交換",
    "sk.how.hide-swap": "秘密交換",
    "sk.how.foresee": "預言",
    "sk.how.revealed": "看過正面",
    "sk.how.not-slave": "捕捉失敗",
    "sk.how.dealt": "發牌",
    "sk.log.private": "◆",
    "sk.side.letter.loyalists": "保",
    "sk.side.letter.rebels": "革",
    "sk.centre.crown_at": "♛ 在 {who} 面前",
    "sk.centre.crown_centre": "♛ 在桌面中央",
    "sk.brief.sultan": "處決公開的革命軍 · 宣示王權 · 禁止拘留",
    "sk.brief.guard": "拘留一人 · 阻止身邊的行刺 · 禁止拘留",
    "sk.brief.assassin": "行刺任何一人（可能被阻止）",
    "sk.brief.slave": "登高一呼 · 投身革命 · 三人相鄰獲勝",
    "sk.brief.slave-driver": "捕捉奴隸（猜中隱藏者可再行動一次）",
    "sk.brief.belly-dancer": "肚皮舞：身邊的守衛不能拘留或阻止",
    "sk.brief.vizier": "宣告陣營，強迫一名隱藏者行動",
    "sk.brief.fortune-teller": "調查三張隱藏的牌，預言勝方",
    "sk.own.now_keys": "現在：{keys}",
    "sk.legend.private": "◆ 私密紀錄：只有你看得到",
    "sk.legend.tokens": "# 拘留  & 被捕  ~ 疲勞  ♛ 加冕  ✝ 死亡  →保/→革 大官支持  =保/=革 預言",
    "sk.pick.hint_seat": "可對 {who}：{keys}",
    "sk.status.click_none": "現在不能對 {who} 做任何事。",
    "sk.log.turn": "回{n}",
    "sk.ev.round-start": "新的一局開始；{who} 先開始。",
    "sk.ev.deal": "你拿到 {card}。",
    "sk.ev.turn": "輪到 {who}。",
    "sk.ev.turn_extra": "{who} 進行額外回合。",
    "sk.ev.turn_you": "輪到你了。",
    "sk.ev.turn_extra_you": "你進行額外回合。",
    "sk.ev.skip.detained": "{who} 被拘留：跳過回合，移除監獄卡。",
    "sk.ev.skip.captured": "{who} 被捕捉：跳過回合。",
    "sk.ev.peek": "{who} 調查了 {target}。",
    "sk.ev.peek-result": "你看到：{target} 是 {card}。",
    "sk.ev.swap": "{who} 和 {target} 交換了角色牌。",
    "sk.ev.new-card": "你現在的角色是 {card}。",
    "sk.ev.hide": "{who} 隱藏了身分，可能換了牌。",
    "sk.ev.hide-swap": "{who} 隱藏身分並和 {target} 交換。",
    "sk.ev.reveal": "{who} 公開了 {card}{cause}。",
    "sk.ev.claim": "{who} 宣示王權！",
    "sk.ev.crown": "加冕牌放到 {target} 面前。",
    "sk.ev.crown_back": "加冕牌回到桌面中央。",
    "sk.ev.execute": "{who} 處決 {target}。",
    "sk.ev.death": "{who} 死亡（{cause}）；角色是 {card}。",
    "sk.ev.detain": "{who} 拘留 {target}。",
    "sk.ev.refuse": "{who} 禁止拘留。",
    "sk.ev.detained": "{who} 拿到監獄卡。",
    "sk.ev.assassinate": "{who} 行刺 {target}！",
    "sk.ev.window.block": "阻止時機：詢問 {n} 人。",
    "sk.ev.window.join": "革命時機：詢問 {n} 人。",
    "sk.ev.window.detention": "詢問 {target} 是否禁止拘留。",
    "sk.ev.answer": "你回應：{answer}。",
    "sk.ev.block": "{who} 阻止了 {target} 的行刺！",
    "sk.ev.block-unused.hidden": "不需要你阻止：{target} 先阻止了；你的角色牌仍然隱藏。",
    "sk.ev.block-unused.revealed": "不需要你阻止：{target} 先阻止了。",
    "sk.ev.revolt": "{who} 登高一呼！",
    "sk.ev.join": "投身革命：{seats}。",
    "sk.ev.join_none": "沒有人投身革命。",
    "sk.ev.capture": "{who} 嘗試捕捉 {target}。",
    "sk.ev.captured": "{target} 被 {who} 捕捉。",
    "sk.ev.not-slave": "{target} 不是奴隸。",
    "sk.ev.extra-turn": "{who} 獲得額外回合。",
    "sk.ev.release": "俘虜獲釋：{seats}。",
    "sk.ev.dance": "{who} 跳起肚皮舞！",
    "sk.ev.manipulate": "{who} 宣告支持{side}，操弄 {target}。",
    "sk.ev.forced": "{who} 必須使用行動。",
    "sk.ev.exhausted": "{who} 疲勞了。",
    "sk.ev.foresee": "{who} 預言，查看 {seats}。",
    "sk.ev.foresee-result": "你看到：{pairs}。",
    "sk.ev.predict": "{who} 預言{side}獲勝。",
    "sk.ev.win": "{side}獲勝：{reason}。",
    "sk.ev.turn-limit": "達到回合上限：本局無人獲勝。",
    "sk.ev.round-end": "所有角色公開；中央牌是 {card}。",
    "sk.cause.claim": "（宣示王權）",
    "sk.cause.refuse": "（禁止拘留）",
    "sk.cause.block": "（阻止行刺）",
    "sk.cause.join": "（投身革命）",
    "sk.cause.manipulated": "（被操弄）",
    "sk.cause.captured": "（被捕捉）",
    "sk.death.executed": "被處決",
    "sk.death.assassinated": "被行刺",
    "sk.death.blocked": "行刺被阻止",
    "sk.answer.pass": "不回應",
    "sk.answer.block": "阻止",
    "sk.answer.join": "加入",
    "sk.answer.refuse": "禁止拘留",
    "sk.answer.accept": "接受拘留",
    "sk.reason.sultan-killed": "蘇丹被殺",
    "sk.reason.revolution": "三名自由的公開奴隸相鄰",
    "sk.reason.no-rebels": "刺客已全死，自由的奴隸不到三名",
    "sk.reason.crown": "加冕生效，蘇丹仍然存活且公開",
    "sk.reason.turn-limit": "達到回合上限",
    "sk.nobody": "沒有人",
    "sk.end.title": "第 {n} 局結果",
    "sk.end.winner": "{side}獲勝：{reason}。",
    "sk.end.nowinner": "無人獲勝：{reason}。",
    "sk.end.points": "本局得分",
    "sk.end.trails": "角色牌的去向",
    "sk.end.trail_step": "回{turn} {where}",
    "sk.end.dead": "死亡",
    "sk.end.hidden": "隱藏",
    "sk.end.revealed": "公開",
    "sk.match.title": "比賽結果",
    "sk.match.so_far": "目前比分",
    "sk.match.after": "第 {n} 局後的比分",
    "sk.match.champion": "★ 整場比賽贏家：{names}，{total} 分",
    "sk.match.champions": "★ 整場比賽贏家（共享）：{names}，各 {total} 分",
    "sk.match.standings": "排名：{list}",
    "sk.match.last_round": "最後一局（第 {n} 局）：{text}",
    "sk.match.total": "總分",
    "sk.match.round_col": "{n}局",
    "sk.match.winners": "贏家：{names}",
    "sk.match.winner": "贏家：{names}",
    "sk.tb.sole-highest": "{names} 得分最高（{total} 分）。",
    "sk.tb.latest-two": "同為 {total} 分：{names} 最近一次拿到 2 分（第 {round} 局）。",
    "sk.tb.shared-same-round": "同為 {total} 分，且最近一次拿 2 分在同一局（第 {round} 局）：共享勝利。",
    "sk.tb.shared-no-two": "同為 {total} 分，且都沒拿過 2 分：共享勝利。",
    "sk.match.again_host": "p：以相同座位再來一場 · o：更改設定",
    "sk.match.again_wait": "房主可以用相同座位再開一場，或更改設定。留下就保留你的座位；要回大廳，在牌桌上按 Esc。",
    "sk.match.again_watch": "房主可以用相同座位再開一場，或更改設定。留下就能繼續觀戰；要回大廳，在牌桌上按 Esc。",
    "sk.pane.log": "紀錄",
    "sk.pane.notes": "筆記",
    "sk.pane.result": "結果",
    "sk.pane.title": "{pane}（Tab）",
    "sk.no_view": "比賽尚未開始。",
    "sk.help.title": "推翻蘇丹：說明",
    "sk.help.your_card": "你的角色：{card}",
    "sk.help.no_card": "你沒有角色（觀戰中）。",
    "sk.help.keys_title": "牌桌按鍵",
    "sk.help.keys": (
        "p 調查 · s 交換（隱藏時）/ 隱藏（公開時）· x 處決 · d 拘留 · a 行刺 · r 登高一呼 · "
        "g 捕捉 · n 肚皮舞 · m 操弄 · f 預言 · l/r 預測陣營 · b 阻止 · j 投身革命 · u 禁止拘留 · "
        "o 不回應 · c 宣示王權（只有持有隱藏蘇丹的人）。\n"
        "按鍵之後：用號碼（座位從 1 號起；10 號以上打兩位數）或方向鍵選座位（s = 中央牌，隱藏時 n = 不交換），"
        "Enter 確定，Esc 返回。也可以用滑鼠點座位。除非房間的計時到了（這時系統代出預設動作："
        "回應時不回應；輪到你時調查下一位隱藏玩家，沒有則與中央牌交換或隱藏；被操控時第一個可用行動；占卜師預言保皇黨），系統不會替你出手。\n"
        "t 聊天 · Tab 切換紀錄/筆記/上局結果，PageUp/PageDown 捲動 · "
        "F4 每一局的結果（← → 換一局）· F3 整場紀錄（/ 搜尋）· "
        "一局結束後按 Enter 繼續（牌桌上每位玩家都繼續，或房間的局間時間到了，就發下一局）· F1 說明 · F2 English/中文 · "
        "p 再來一場、o 先更改設定（房主，比賽結束後）· {leave}"
    ),
    "sk.help.legend_title": "符號",
    "sk.help.states_title": "疲勞、拘留、被捕；哪位守衛阻止",
    "sk.help.states": (
        "~疲勞：被大官操弄的玩家。他的下個回合不能使用角色的「行動」，但仍可調查、交換或隱藏（可秘密交換）。"
        "疲勞不影響回應：疲勞的守衛仍可阻止刺客，疲勞的蘇丹仍可宣示王權或禁止拘留，疲勞的奴隸仍可投身革命。"
        "那個下個回合結束時（即使被跳過）疲勞就移除。\n"
        "#拘留：下個回合被跳過。&被捕（被奴隸販子捕捉）：被捕期間每個回合都被跳過。"
        "被拘留或被捕的玩家不能阻止刺客，也不能投身革命；但仍可宣示王權或禁止拘留。\n"
        "同一次行刺有多位守衛阻止時，由刺客左手邊起順時針的第一位守衛阻止："
        "從刺客的下一個座位號碼往上數（最後一個座位之後是 1 號）。只有那位守衛公開並殺死刺客，其他守衛維持原狀。"
    ),
    "sk.help.game_title": "遊戲規則",
    "sk.rules.sultan": (
        "保皇黨。行動〈處決〉：殺死一名存活且公開的刺客或奴隸（不能處決隱藏的人，也不能處決中立角色）。"
        "回應〈宣示王權〉：只要你持有隱藏的蘇丹就可以公開（即使不是你的回合）；加冕牌放到目前主動玩家面前，"
        "輪回那個座位時若你仍存活且公開，保皇黨獲勝。回應〈禁止拘留〉。"
    ),
    "sk.rules.guard": (
        "保皇黨。行動〈拘留〉：給另一名存活的玩家監獄卡，他跳過下個回合。"
        "回應〈阻止刺客〉：與你相鄰的刺客或其目標與你相鄰時，公開阻止，刺客反被殺死。"
        "回應〈禁止拘留〉。與公開的肚皮舞孃相鄰時不能拘留也不能阻止。"
    ),
    "sk.rules.assassin": "革命軍。行動〈行刺〉：殺死任何一名其他存活的玩家（公開或隱藏）；刺客或目標身邊的守衛可以阻止。殺死蘇丹，革命軍獲勝。",
    "sk.rules.slave": (
        "革命軍。行動〈登高一呼〉：公開身分。回應〈投身革命〉：有奴隸登高一呼時，隱藏且自由的奴隸可以一起公開。"
        "三名自由、公開的奴隸相鄰，革命軍獲勝。"
    ),
    "sk.rules.slave-driver": (
        "中立：隱藏時算革命軍，公開時算保皇黨。行動〈捕捉〉：捕捉一名公開的奴隸，或指定一名隱藏的玩家："
        "若是奴隸就公開並被捕捉，你獲得額外回合。被捕捉的奴隸跳過回合，直到你隱藏或死亡。"
    ),
    "sk.rules.belly-dancer": (
        "中立：隱藏時算保皇黨，公開時算革命軍。行動〈肚皮舞〉（只能在隱藏時使用）：公開身分；"
        "只要你保持公開、自由且存活，你身邊的守衛不能拘留也不能阻止刺客。"
    ),
    "sk.rules.vizier": (
        "中立。行動〈操弄〉：宣告支持保皇黨或革命軍，然後讓一名存活、隱藏且未被拘留的玩家公開並使用角色行動"
        "（由他自己選目標），之後他會疲勞。公開時你屬於你宣告的陣營（公開期間不能改）；"
        "隱藏時，若結束時你與得 2 分的玩家相鄰，你得 1 分。"
    ),
    "sk.rules.fortune-teller": (
        "中立。行動〈預言〉：調查三名隱藏玩家的角色（不足三名就看全部），然後公開預言勝方。"
        "下個回合你必須隱藏。公開且預言正確得 2 分；隱藏時不能獲勝。"
    ),
    # the game in the lobby, help and the settings dialog and line (tui/sultans/ui.py)
    "game.sultans": "推翻蘇丹",
    "game.short.sultans": "推翻蘇丹",
    "sultans.opt.rounds": "局數",
    "sultans.opt.match": "比賽方式",
    "sultans.opt.match.rounds": "固定局數",
    "sultans.opt.match.first_to": "先到 N 分",
    "sultans.opt.first_to": "獲勝分數（最多 {cap} 局）",
    "sultans.opt.first_to.hint": "1-{hi}",
    "sultans.opt.turn_limit": "每局回合上限（至少 {lo}）",
    "sultans.opt.notebook": "筆記本",
    "sultans.opt.notebook.box": "顯示你看過的角色卡",
    "sultans.form.first_to.needed": "先到 N 分：幾分獲勝？請輸入 1 到 {hi} 之間的數字。",
    "sultans.form.turn_limit.min": "每局回合上限：至少 {lo} 回合（房規）。",
    "summary.first_to": "先到 {n} 分（最多 {cap} 局）",
    "summary.first_to_one": "先到 1 分（最多 {cap} 局）",
    "summary.turn_limit": "回合上限 {n}",
    "summary.notebook_on": "筆記本開啟",
    "summary.notebook_off": "筆記本關閉",
    "help.game.sultans": (
        "每人面前一張蓋著的角色卡，多出的一張放在桌子中央作為中央牌。保皇黨（蘇丹、守衛）對抗"
        "革命軍（刺客、奴隸）；中立角色（奴隸販子、肚皮舞孃、大官、占卜師）的陣營隨狀態改變。\n"
        "輪到你時只做一件事：調查一位隱藏玩家的角色；與一位隱藏玩家或中央牌交換"
        "（公開的角色會先隱藏，並可秘密交換）；或使用角色的「行動」，使用時角色會公開。"
        "若某位玩家的交換拿走了你的角色卡，直到你下個回合結束前，你不能與他交換。\n"
        "行動：蘇丹處決一名公開的刺客或奴隸；守衛拘留一名玩家（他跳過下一回合）；刺客殺死任何其他玩家；"
        "奴隸登高一呼（發動革命）；奴隸販子捕捉奴隸；肚皮舞孃跳舞（與她相鄰的守衛不能拘留或阻止）；"
        "大官宣告陣營並操控一名隱藏玩家行動；占卜師查看三張角色卡並預言勝方。\n"
        "回應（任何人的回合都可以）：與刺客或目標相鄰的守衛可阻止刺殺；隱藏且自由的奴隸可投身革命；"
        "蘇丹或守衛可禁止拘留；持有隱藏蘇丹的玩家可隨時宣示王權。\n"
        "加冕牌轉回到它所在的玩家時，若蘇丹仍存活且公開，保皇黨獲勝；或沒有刺客且自由的奴隸少於三位時，"
        "保皇黨獲勝。刺客殺死蘇丹，或三位自由且公開的奴隸相鄰而坐時，革命軍獲勝。\n"
        "勝方每位存活玩家：公開得 2 分，隱藏得 1 分（大官和占卜師依各自角色卡的規則）。一場比賽預設 5 局（房主可改局數，或改為先到幾分），總分最高者獲勝。\n"
        "刺殺或登高一呼時會詢問其他所有存活玩家（拘留只詢問被拘留的人），所以沒人能知道誰可以回應。"
        "快速回應時機（預設）下，你只能不回應時由房間替你不回應（畫面顯示「你沒有可以回應的」），每個時機至少開放最短時間，"
        "也沒人看得到誰已回應；嚴格回應時機下每人都要回答。"
        "不想回應時按 o（不回應；n 也可以，和刺殺領主一樣）。"
    ),
}

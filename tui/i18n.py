"""The message catalogue: every UI string in English and Traditional Chinese.

``t(key, lang, **params)`` looks a key up and fills ``str.format`` params.
Both catalogues must hold the same keys with the same params
(``tests/tui/test_i18n.py`` checks). User-provided text is never put into a
catalogue string as markup: screens render results as literal text.
"""

from __future__ import annotations

import functools
import string
import unicodedata
from collections.abc import Mapping
from typing import Literal

from engine.api import DEFAULT_BOT_LEVEL
from tui.client import ClientError, RoomSettings, SeatInfo, bot_name, seat_index, seat_number

Lang = Literal["en", "zh"]
LANGS: tuple[Lang, ...] = ("en", "zh")

EN: dict[str, str] = {
    "yes": "yes",
    "no": "no",
    "lang.name": "English",
    # key bar
    "punct.colon": ": ",
    "punct.list": ", ",
    "key.join": "Join",
    "key.watch": "Watch",
    "key.create": "New room",
    "key.chat": "Chat",
    "key.chat_send": "Send",
    "key.chat_done": "Stop typing",
    "key.help": "Help",
    "key.lang": "中文",
    "key.quit": "Quit",
    "key.admin": "Admin",
    "lobby.motd": "Message of the day: {text}",
    "admin.notice": "A message from an admin: {text}",
    "invite.title": "Welcome, {name}! This club is for members. Type the invite code an admin gave you:",
    "invite.hint": "invite code",
    "admin.title": "Admin · {view}",
    "admin.view.online": "online",
    "admin.view.bans": "bans",
    "admin.view.members": "members",
    "admin.view.audit": "audit log",
    "admin.key.view": "List",
    "admin.key.message": "Tell",
    "admin.key.kick": "Kick",
    "admin.key.mute": "Mute",
    "admin.key.ban": "Ban",
    "admin.key.lift": "Unban",
    "admin.key.free": "Free name",
    "admin.key.close": "Close room",
    "admin.key.announce": "Announce",
    "admin.key.motd": "MOTD",
    "admin.key.invite": "Invite",
    "admin.key.revoke": "Revoke",
    "admin.key.add_admin": "Add admin",
    "admin.col.key": "Key",
    "admin.col.address": "Address",
    "admin.col.where": "Where",
    "admin.col.since": "Since (UTC)",
    "admin.col.number": "No.",
    "admin.col.ban": "Banned",
    "admin.col.until": "Until (UTC)",
    "admin.col.reason": "Why",
    "admin.col.invited_by": "Invited by",
    "admin.col.state": "State",
    "admin.col.when": "When (UTC)",
    "admin.col.who": "Who",
    "admin.col.what": "What",
    "admin.guest": "(guest)",
    "admin.muted": "(muted)",
    "admin.lobby": "lobby",
    "admin.room": "room {room}",
    "admin.forever": "forever",
    "admin.kind.key": "key",
    "admin.kind.name": "name",
    "admin.kind.address": "address",
    "admin.member": "member",
    "admin.revoked": "revoked",
    "admin.field.text": "Text:",
    "admin.field.name": "Player name:",
    "admin.field.reason": "Why (the player is told):",
    "admin.field.duration": "For how long (30m, 2h, 7d, 1w or forever):",
    "admin.default.mute": "1h",
    "admin.default.invite": "7d",
    "admin.field.kind": "Ban by (key, name or address):",
    "admin.field.value": "Whom (key fingerprint, name, or address/network):",
    "admin.field.confirm": "Type y to confirm:",
    "admin.field.room": "Room number:",
    "admin.field.uses": "How many keys it admits:",
    "admin.field.expires": "Good for (30m, 2h, 7d, 1w or forever):",
    "admin.field.only_name": "Only for this name (empty: any):",
    "admin.field.key": "Key fingerprint (SHA256:...):",
    "admin.ask.message": "A message to {name}",
    "admin.ask.kick": "Close {name}'s sessions",
    "admin.ask.mute": "Mute {name} in chat",
    "admin.ask.ban": "Ban {name}",
    "admin.ask.free": "Free a name (the key that owns it loses it)",
    "admin.ask.close": "Close a room (its match ends as abandoned)",
    "admin.close.rooms": "Rooms by number: {rooms}",
    "admin.close.no_rooms": "No room is open.",
    "admin.ask.announce": "An announcement to everyone now",
    "admin.ask.motd": "The message of the day (empty: none)",
    "admin.ask.invite": "A new invite code",
    "admin.ask.revoke": "Revoke the member {name}",
    "admin.ask.add_admin": "Add an admin",
    "admin.done.message": "Sent to {name}.",
    "admin.done.kick": "{name} was put out.",
    "admin.done.mute": "{name} is muted.",
    "admin.done.ban": "Banned.",
    "admin.done.lift": "Ban {number} lifted.",
    "admin.done.free": "The name is free.",
    "admin.done.close": "Room closed.",
    "admin.done.announce": "Announced.",
    "admin.done.motd": "Message of the day set.",
    "admin.done.invite": "Invite code: {code} (give it to the newcomer)",
    "admin.done.revoke": "Membership revoked.",
    "admin.done.add_admin": "Admin added.",
    "err.admin.confirm": "Type y to confirm.",
    "err.admin.self": "That would ban you: pick another.",
    "err.admin.bad-kind": "Ban by key, name or address.",
    "key.ready": "Ready",
    "key.unready": "Not ready",
    "key.sit": "Sit here",
    "key.add_bot": "Add bot",
    "key.remove": "Remove",
    "key.options": "Options",
    "key.start": "Start",
    "key.leave": "Leave",
    "key.play": "Play",
    "key.actions": "Actions",
    "key.view": "View",
    "key.play_again": "Play again",
    "key.reopen": "Change settings",
    "key.leaders": "Leaderboard",
    "key.online": "Online",
    "key.leaders_game": "Switch game",
    "key.settings": "Settings",
    "key.next_field": "Next field",
    "key.choose": "Choose",
    "key.close": "Close",
    "key.scroll": "Scroll",
    "table.log_back": "↑ scrolled back · End: newest",
    # columns
    "col.room": "Room",
    "col.game": "Game",
    "col.seats": "Seats",
    "col.watchers": "Watching",
    "col.state": "State",
    "col.host": "Host",
    "col.player": "Player",
    "col.points": "Points",
    "col.wins": "Wins",
    "col.seat": "Seat",
    "col.kind": "Kind",
    "col.status": "Status",
    "col.rank": "#",
    "col.matches": "Matches",
    "col.rate": "Win %",
    "col.rate_short": "%",
    "col.avg_points": "Avg pts",
    "col.record": "W/M",
    # games
    "game.sultans": "Sultans of Karaya",
    "game.overlord": "Kill the Overlord",
    "game.short.sultans": "Sultans",
    "game.short.overlord": "Overlord",
    "state.waiting": "waiting",
    "state.playing": "playing",
    "state.finished": "finished",
    # lobby
    "lobby.online": "Online ({n})",
    "lobby.online_more": "+{n} more (o)",
    "lobby.leaders": "Leaderboard (b)",
    "leaders.title": "Leaderboard · {game}",
    "leaders.all": "all games",
    "leaders.foot": "g shows each game's own board, with its points · Escape closes.",
    "leaders.how": "By win rate, counting how many matches show it (F1 says how); players it cannot tell apart share a place.",
    "lobby.no_leaders": "No ranked matches yet (players with a key are ranked; guests are not).",
    "lobby.fingerprint": "Host key {fp}",
    "lobby.guest": "guest",
    "lobby.as_guest": "{name} (guest)",
    "lobby.count_online": "{n} online",
    "lobby.rooms": "Rooms ({n})",
    "lobby.no_rooms": "No rooms yet: press c to create one.",
    "lobby.private": "private",
    "lobby.your_seat": "your seat",
    "lobby.seat_kept": "Your seat in {room} is kept: Enter on it takes you back.",
    "app.small": "This terminal is {width}×{height}, too small to show everything: make the window at least {need_w}×{need_h} (80×24 or more is best).",
    "lobby.renamed": "You play as {name}: a player name keeps letters, digits and - _ . only, 20 at most (you asked for {asked}).",
    "chat.placeholder.lobby": "t: say something to everyone in the lobby",
    "chat.placeholder.room": "t: say something to this room",
    "chat.full": "A chat line holds {max} characters at most: the rest was not taken. Send this one, then type on.",
    # the host's system lines in chat (tui.client.ChatLine.key; names are literal)
    "sys.sat_down": "{name} sat down",
    "sys.moved": "{name} moved to seat {seat}",
    "sys.back": "{name} is back",
    "sys.watching": "{name} is watching",
    "sys.left": "{name} left",
    "sys.absent": "{name} was not at the table: the seat is free for the next match",
    "sys.left_autoplay": "{name} left; a bot plays their seat",
    "sys.away_autoplay": "{name} is away; a bot plays their seat",
    "sys.dropped": "{name} lost the connection; a bot plays their seat if they are not back in {secs} s",
    "sys.new_host": "{name} is now the host",
    "sys.kicked": "{name} was removed by the host",
    "sys.announce": "Announcement: {text}",
    "sys.room_closed_admin": "An admin closed room {room}: {reason}",  # (lines kept from before rooms were named)
    "sys.room_closed_admin_named": "An admin closed room {room} ({title}): {reason}",
    "sys.settings_changed": "the host changed the settings",  # (lines kept from before the changes were named)
    "sys.settings_changed_what": "the host changed the settings: {changes}",
    "changed.name": "room name",
    "changed.seats": "seats",
    "changed.turn_timer": "turn timer",
    "changed.window_timer": "reaction timer",
    "changed.bot_delay": "bot delay",
    "changed.strict_windows": "strict windows",
    "changed.window_min": "window minimum",
    "changed.bot_level": "bot level",
    "changed.bot_levels": "bot levels by seat",
    "changed.between_rounds": "time between rounds",
    "changed.private": "private",
    "changed.code": "code",
    "changed.rounds": "rounds",
    "changed.first_to": "points to win",
    "changed.turn_limit": "turn limit",
    "changed.notebook": "notebook",
    "changed.round_limit": "round limit",
    "changed.coronation": "coronation",
    "changed.expansion_ranks": "expansion roles",
    "changed.ruleset": "rule set",
    "changed.options": "the game's options",
    "sys.game_changed": "the host changed the game to {game}",
    "sys.match_begins": "a match of {game} begins",
    "sys.restarted": "the server restarted; the match goes on",
    "sys.restarted_room": "the server restarted; the room is as it was",
    "sys.match_over": "the match is over; won by {names}",
    "sys.reopened": "the host brought everyone back to the room to change the settings",
    "sys.match_over_nobody": "the match is over; won by nobody",
    "sys.timed_out": "time ran out for {names}: the room played the default",
    "sys.away_standin": "{name} is away (time ran out twice in a row): a stand-in bot plays their seat until they press a key",
    "sys.handed_standin": "the host {host} handed {name}'s seat to a stand-in bot until {name} presses a key",
    "sys.standin_back": "{name} is back and plays their seat again",
    "sys.left_match": "{name} left the match; a bot plays their seat to the end",
    "sys.guest_gone": "{name} (a guest) did not come back in time; a bot plays their seat to the end",
    # dialogs
    "button.ok": "OK",
    "button.cancel": "Cancel",
    "button.yes": "Yes",
    "button.no": "No",
    "button.save": "Save",
    "button.create": "Create",
    "dialog.code": "Room {room} is private. Its code:",
    "dialog.code_hint": "the code the host gave you",
    "dialog.settings.create": "New room",
    "dialog.language": "Settings",
    "dialog.language.foot": "Enter picks a language, or turns a setting on or off; Escape closes. F2 switches the language anywhere.",
    "settings.lang.current": "✓ {name} (the language now)",
    "settings.bell.on": "Bell on your turn: on (the terminal rings when a game waits for your decision)",
    "settings.bell.off": "Bell on your turn: off",
    "settings.ask_every.on": "Ask me in every window: on (you answer even when pass is all you can do)",
    "settings.ask_every.off": "Ask me in every window: off (with only pass to answer, the room passes for you)",
    "dialog.settings.change": "Room options",
    "field.game": "Game",
    "field.name": "Room name",
    "field.name.hint": "optional",
    "field.seats": "Seats",
    "field.seats.range": "Seats ({lo}-{hi})",
    "field.rounds": "Rounds",
    "field.match": "Match",
    "field.match.rounds": "a set number of rounds",
    "field.match.first_to": "first to N points",
    "field.first_to": "Points to win (15 rounds max)",
    "field.first_to.hint": "1-{hi}",
    "field.turn_limit": "Turn limit per round (min 50)",
    "field.notebook": "Notebook",
    "field.notebook.box": "shows what you have seen",
    "field.turn_timer": "Turn timer (s, 0 = off)",
    "field.window_timer": "Reaction timer (s, 0 = off)",
    "field.bot_delay": "Bot delay (s)",
    "field.strict_windows": "Strict windows",
    "field.strict_windows.box": "everyone answers every window",
    "field.window_min": "Window minimum (s)",
    "field.bot_level": "Bot level",
    "field.bot_levels": "Level by seat",
    "field.bot_levels.hint": "e.g. 2:easy 4:normal",
    "form.bot_levels": "Level by seat: seat:level, e.g. 2:{level} (seats {lo}-{hi}).",
    "field.between_rounds": "Between rounds (s)",
    "field.private": "Private",
    "field.private.box": "needs a code to join",
    "field.code": "Code",
    "field.code.hint": "empty: 4 random digits",
    "form.range": "{field}: a number from {lo} to {hi}, please.",
    "form.first_to_needed": "First to N points: how many points win? A number from 1 to {hi}, please.",
    "form.turn_limit_min": "Turn limit per round: at least {lo} turns (house rule).",
    "confirm.quit": "Leave throneroom?",
    "confirm.kick": "Remove {name} from the room? They cannot join or watch it again.",
    "confirm.leave_room": "Leave this room?",
    "confirm.leave_table": "Leave the table? The match goes on, a bot playing your seat until you come back from the lobby; the seat stays yours.",
    "confirm.leave_match": "Leave this match for good? A bot plays your seat to the end, the result marks you as left (a match played and not won on the leaderboard), and you can join or create another room at once.",
    "confirm.standin": "Hand {name}'s seat ({seat}) to a stand-in bot? It plays at bot pace until {name} presses a key at the table; the chat says so.",
    "standin.title": "Hand whose seat to a stand-in bot?",
    # room
    "room.host_is": "host {name}",
    "room.unnamed": "{host}'s table",
    "room.spectators": "Watching: {names}",
    "room.seats": "Seats {taken}/{n}",
    "room.removed": "You are no longer in that room.",
    "room.code_is": "code: {code}",
    "room.status.watching": "You are watching. Take an empty seat with Enter.",
    "room.status.watching_full": "You are watching. No seat is free: the host can remove a bot (d).",
    "room.status.host": "Host: a adds a bot, d removes, o options, s starts.",
    "room.status.ready": "You are ready. Waiting for the host to start.",
    "room.status.not_ready": "Press r when you are ready.",
    "seat.empty": "(empty)",
    "seat.away": "offline",
    "seat.autoplay": "bot plays",
    "seat.standin": "away",
    "seat.left": "left",
    "seat.ready": "ready ✓",
    "seat.not_ready": "not ready",
    "kind.empty": "empty",
    "kind.human": "player",
    "kind.bot": "bot",
    "kind.guest": "guest",
    # table
    "table.seat_you": "you are seat {seat}",
    "table.spectator": "watching",
    "table.bot_name": "Bot {n}",
    "table.bot_level": "{name}·{level}",
    "level.easy": "easy",
    "level.normal": "normal",
    "level.strong": "strong",
    "table.no_view": "The match has not started yet.",
    "table.finished": "The match is over.",
    "table.between_rounds": "Round over: the next round starts soon.",
    "table.finished_host": "The match is over. Press p to play again, or o to change the settings.",
    "table.watching": "You are watching: you see only what is public.",
    "table.your_move": "Your move",
    "table.optional": "Not your turn; you may still use an action below.",
    "table.waiting": "Waiting for other players...",
    "table.actions": "Your actions ({n})",
    "table.no_actions": "No actions now",
    "table.countdown": "⏱ {s} s",
    "table.key.go_on": "Go on",
    "table.log_private": "◆",
    "why.timeout": "Your time ran out: the room played the default for you.",
    "why.timeout_pass": "Your time ran out: the room passed for you.",
    "why.quick_pass": "You had nothing to answer: the room passed for you.",
    "why.standin": "A stand-in bot played that for you while you were away.",
    "table.key.results": "Results",
    "table.key.log": "Log",
    "table.results.round": "Round {n} result",
    "table.break.go_on": "Enter: go on",
    "table.break.ready": "You are ready for the next round.",
    "table.break.waiting": "Waiting for {names}.",
    "table.break.next_in": "Next round in {s} s.",
    "results.key.go_on": "Go on",
    "results.key.other": "Other rounds",
    "results.key.table": "Table",
    "log.key.search": "Search",
    "log.key.next": "Next",
    "log.title": "The match's log · {n} lines",
    "log.foot": "/ search · n next match · PgUp/PgDn scroll · Esc back to the table",
    "log.not_found": "“{text}”: not found.",
    "log.found": "“{text}”: {i} of {n} · n: next",
    "log.search_hint": "Search the log: a word, then Enter",
    "table.played": "Sent: {action}",
    # errors
    "err.room-full": "That room is full.",
    "err.bad-level": "This game's bots do not play at that level.",
    "err.stale": "The table changed before your action arrived: look again and choose.",
    "err.illegal": "Not allowed now: {msg}",
    # an illegal action, by the engine's reason (ClientError.reason); the engine's English detail follows
    "err.illegal.illegal": "That move is not allowed now ({msg}).",
    "err.illegal.not-pending": "Nothing is asked of you right now: wait for your turn or a question ({msg}).",
    "err.illegal.parse": "That is not an action of this game ({msg}).",
    "err.illegal.round-over": "The round is over ({msg}).",
    "err.illegal.game-over": "The game is over ({msg}).",
    "err.illegal.bad-seat": "There is no such seat.",
    "err.not-host": "Only the room's host can do that.",
    "err.bad-code": "Wrong code for that private room.",
    "err.code-needed": "That room is private: type its code.",
    "err.code-tries": "Too many wrong codes: wait a minute, then try again.",
    "err.chat-fast": "Too many chat lines at once: wait a moment (your line is still in the chat line).",
    "err.rooms-full": "The server has {max} rooms open, as many as it may: join one, or try again later.",
    "err.rooms-source": "Players from your address have {max} rooms open, as many as one address may: join one, or close one first.",
    "err.chat-storage": "The host could not save your line (its disk may be full): try again in a moment (your line is still in the chat line).",
    "err.chat-long": "A chat line holds {max} characters at most: shorten it (your line is still in the chat line).",
    "err.no-room": "That room no longer exists.",
    "err.closed": "You are no longer in that room.",
    "err.closed-admin": "An admin closed that room: {reason}",
    "err.muted": "An admin muted you in chat: {reason}",
    "err.muted.timed": "An admin muted you in chat until {until}: {reason}",
    "err.name-owned": "That name belongs to another key: connect under another name.",
    "err.not-needed": "You are a member already.",
    "err.bad-invite": "That invite code is not valid (used up, expired or mistyped).",
    "err.invite-name": "That invite code is for another name.",
    "err.admin": "{detail}",
    "err.admin.bad-duration": "Not a duration: say 30m, 2h, 7d, 1w or forever.",
    "err.admin.bad-address": "Not an address or network (e.g. 203.0.113.5 or 203.0.113.0/24).",
    "err.admin.bad-key": "A key fingerprint looks like SHA256:...",
    "err.admin.no-reason": "Say why: the player is told.",
    "err.admin.not-found": "Not found: {detail}",
    "err.admin.not-online": "{detail} is not online.",
    "err.admin.config-admin": "That admin is named in the config file: remove them there.",
    "err.admin.bad-uses": "An invite is good for 1 to 1000 uses.",
    "err.admin.empty": "Say what?",
    "err.kicked": "The host removed you from that room.",
    "err.banned": "The host removed you from that room: you cannot join or watch it again.",
    "err.in-progress": "That match has already started: watch it instead.",
    "err.in-match": "You have a seat in a match being played: it is yours until the match ends (Enter on its room takes you back; q at its table leaves the match for good).",
    "err.playing": "The match is on: that cannot change now.",
    "err.not-playing": "No match is being played in this room.",
    "err.not-seated": "You have no seat in this room.",
    "err.not-ready": "Not everyone is ready yet: {msg}",
    "err.not-ready.waiting": "Not everyone is ready yet: waiting for {names}.",
    "err.seat-taken": "That seat is taken.",
    "err.seats-taken": "Players sit in the seats that would go; they must move first.",
    "err.bad-seat": "Not possible with that seat: {msg}",
    "err.bad-seat.none": "There is no seat {seat}.",
    "err.bad-seat.no-bot": "Seat {seat} has no bot.",
    "err.bad-seat.no-player": "Seat {seat} has no player.",
    "err.bad-seat.self": "The host cannot remove themselves: leave the room instead (Escape).",
    "err.bad-seat.self-standin": "You cannot hand your own seat to a stand-in: Escape leaves the table and a bot plays it until you come back.",
    "err.bad-seat.standin": "A stand-in bot plays seat {seat} already.",
    "err.bad-seats": "Wrong number of seats: {msg}",
    "err.bad-game": "That game is not offered here.",
    "err.bad-options": "Those options are not valid: {msg}",
    "err.bad-lang": "That language is not available.",
    "err.engine": "The game could not do that: {msg}",
    "err.storage": "The host could not save that; try again.",
    "err.other": "Refused: {msg}",
    # settings summary
    "summary.seats": "{n} seats",
    "summary.rounds": "{n} rounds",
    "summary.rounds_one": "1 round",
    "summary.first_to": "first to {n} points (at most {cap} rounds)",
    "summary.first_to_one": "first to 1 point (at most {cap} rounds)",
    "summary.turn_limit": "turn limit {n}",
    "summary.notebook_on": "notebook on",
    "summary.notebook_off": "notebook off",
    "summary.turn_timer": "turn {s} s",
    "summary.turn_timer_off": "no turn timer",
    "summary.window_timer": "reactions {s} s",
    "summary.window_timer_off": "no reaction timer",
    "summary.bot_delay": "bots think {s} s",
    "summary.quick_windows": "quick windows (at least {s} s)",
    "summary.strict_windows": "strict windows (everyone answers)",
    "summary.bot_level": "bots {level}",
    "summary.bot_seat": "seat {n} {level}",
    "summary.between_rounds": "results stay {s} s",
    # view field labels (generic table)
    "view.seats": "Seats",
    "view.seat": "Seat",
    "view.name": "Name",
    "view.card": "Card",
    "view.own_card": "Your card",
    "view.my_card": "Your card",
    "view.you": "You",
    "view.round": "Round",
    "view.rounds": "Rounds",
    "view.turn": "Turn",
    "view.phase": "Phase",
    "view.active": "Active seat",
    "view.pending": "Waiting for",
    "view.log": "Log",
    "view.events": "Events",
    "view.history": "History",
    "view.notes": "Notes",
    "view.notebook": "Notebook",
    "view.scores": "Scores",
    "view.totals": "Totals",
    "view.points": "Points",
    "view.spare": "Spare",
    "view.crown": "Crown",
    "view.revealed": "Revealed",
    "view.hidden": "Hidden",
    "view.dead": "Dead",
    "view.alive": "Alive",
    "view.detained": "Detained",
    "view.captured": "Captured",
    "view.exhausted": "Exhausted",
    "view.side": "Side",
    "view.prediction": "Prediction",
    "view.declared": "Declared",
    "view.winner": "Winner",
    "view.winners": "Winners",
    "view.gold": "Gold",
    "view.hand": "Hand",
    "view.hand_size": "Hand size",
    "view.role": "Role",
    "view.rank": "Rank",
    "view.deck": "Deck",
    "view.discard": "Discard",
    "view.known": "Known",
    "view.stale": "Stale",
    "view.index": "Seat",
    "view.your_card": "Your card",
    "view.spare_card": "Spare card",
    "view.your_bans": "You may not swap with",
    "view.round_number": "Round",
    "view.turns_played": "Turns played",
    "view.turn_limit": "Turn limit",
    "view.between_rounds": "Between rounds",
    "view.over": "Over",
    "view.tiebreak": "Tie-break",
    "view.max_rounds": "Most rounds",
    "view.first_to": "First to",
    "view.players": "Players",
    "view.viewer": "You are",
    "view.first": "First seat",
    "view.extra_turn": "Extra turn",
    "view.window": "Reaction window",
    "view.legal": "Legal actions",
    "view.outcome": "Outcome",
    "view.reason": "Reason",
    "view.kind": "Kind",
    "view.actor": "Actor",
    "view.target": "Target",
    "view.asked": "Asked",
    "view.waiting": "Still to answer",
    "view.answered": "Answered",
    "view.your_answer": "Your answer",
    "view.foreseen": "Foreseen",
    "view.must_hide": "Must hide",
    "view.playing": "Playing",
    "view.forced": "Forced",
    "view.cards": "Cards",
    "view.trails": "Where the cards went",
    "view.steps": "Steps",
    "view.cause": "Cause",
    "view.audience": "Seen by",
    "view.private": "Private",
    "view.negated": "Not",
    "view.how": "How",
    "view.stale_turn": "Changed on turn",
    "view.number": "Round",
    "view.total": "Total",
    "view.tied": "Tied",
    "view.code": "Code",
    "view.role_name": "Role",
    "view.income": "Income",
    "view.token": "Execution token",
    "view.hand_limit": "Hand limit",
    "view.is_ruler": "Ruler",
    "view.holds_order": "Holds the order",
    "view.shown": "Shown hand",
    "view.ruler": "Ruler",
    "view.holder": "Order holder",
    "view.path": "Order path",
    "view.transfers": "Transfers",
    "view.centre": "Centre",
    "view.deck_size": "Deck",
    "view.chain": "Cards in play",
    "view.banned": "Banned card",
    "view.uprising_by": "Uprising by",
    "view.uprising_named": "Uprising against",
    "view.prompt": "Prompt",
    "view.owed": "Still to answer",
    "view.round_limit": "Round limit",
    "view.coronation": "Coronation at",
    "view.ruleset": "Rule set",
    "view.direction": "Direction",
    "view.params": "Details",
    "view.n": "No.",
    # help
    "help.title": "Help",
    "help.keys.title": "Keys",
    "help.keys": (
        "Everywhere: F1 help, F2 English/中文, Tab moves between parts of the screen, "
        "Escape backs out, Ctrl+C or Ctrl+Q quits (after asking, as q does). The mouse works too: click rows, buttons and the key bar.\n"
        "Lobby: arrows pick a room, Enter joins it, w watches it, c creates a room, t chats, "
        "b shows the whole leaderboard (g there: each game's own), o everyone online, l opens the settings (language, the bell on your turn, ask me in every window), q quits.\n"
        "Room: r ready / not ready, Enter takes the highlighted empty seat, t chats, Escape leaves. "
        "The host also has: a add a bot, d remove the highlighted bot or player, o options (the game too), s start.\n"
        "Tables: the key bar along the bottom lists what you can do now: a key for each kind of "
        "action, then a seat or a card by its number or the arrows, Enter sends, Escape backs out "
        "(nothing is played for you unless the room's timer runs out). t chats, Tab switches the pane below, F1 explains the "
        "game's keys and signs and what you hold, p plays again or o changes the settings first (host, after the match), Escape "
        "leaves the table (your seat stays yours; a bot plays it until you come back)."
    ),
    "help.game.title": "{game} ({lo}-{hi} players)",
    "help.leaders.title": "Leaderboard",
    "help.leaders": (
        "Players with a key are ranked (guests and bots are not). Each row shows wins, matches and the win rate. "
        "The order is by win rate, counting how many matches show it (the lower end of its 95% Wilson interval): "
        "1 win in 1 match may be luck, so 3 wins in 4 rank above it, and 5 in 10 too; with no win yet, how many "
        "matches does not matter. Players the order cannot tell apart share a place. On a game's own board (g), "
        "equal rates go by average points per match (Avg pts)."
    ),
    "help.game.none": "No summary for this game yet.",
    "table.timed_out": "Your time ran out earlier: the room played the default for you.",
    "table.away_you": "You are away: a stand-in bot plays your seat. Press any key to take it back.",
    "table.back": "You are back: your seat is yours again.",
    "table.key.standin": "Stand-in",
    "table.key.leave_match": "Leave match",
    "table.left_seats": "Left the match before its end (a bot played on): {names}",
    "table.help.standin": (
        "q leaves the match for good: a bot plays your seat to the end, the result marks you as left "
        "(on the leaderboard a match played, not won) and you may join another room at once. "
        "z (host) hands a player's seat to a stand-in bot. A seat whose time ran out twice in a row is away: "
        "a stand-in bot plays it until its player presses any key at the table.\n"
        "Seat marks: away (a stand-in bot plays it) · left (its player left the match) · "
        "offline (disconnected) · bot plays (its player is not at the table)."
    ),
    "pick.not_a_choice": "{n} is not a choice now.",
    "pick.enter_again": "That number was no choice: Enter again sends the highlighted one.",
    "table.help.leave": "Escape leaves the table (your seat stays yours; a bot plays it until you come back).",
    "table.help.leave_watching": "Escape stops watching.",
    "help.game.crown": "{n} gold",
    "help.game.crown_either": "40 gold (30 where the room chose the shorter game)",
    "help.foot": "Escape or F1 closes help.",
    "help.close": "Escape closes.",
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
    "help.game.overlord": (
        "Everyone holds a role with a rank and an income, 5 gold and plot cards. Each round: "
        "draw 2 cards (fewer if that would go over your hand limit), take income (not in round 1), "
        "and if the Overlord has {crown} he is crowned and wins.\n"
        "Then the order phase: the Overlord gives the order to another player. Whoever holds "
        "it must pass it on with a shield card (each card says to whom and adds an effect), "
        "pass it by role (Peasant, Outlaw), play a desperation card when holding no shield "
        "card, or die. Anyone may answer a card with Retaliate, and take the order with Plead "
        "Guilty.\n"
        "When the Overlord dies the phase ends; survivors then take better roles from the "
        "centre. The Overlord also wins when he is the last one alive. After the last round "
        "the most gold wins."
    ),
}

ZH: dict[str, str] = {
    "yes": "是",
    "no": "否",
    "lang.name": "繁體中文",
    "punct.colon": "：",
    "punct.list": "、",
    "key.join": "加入",
    "key.watch": "觀戰",
    "key.create": "開房間",
    "key.chat": "聊天",
    "key.chat_send": "送出",
    "key.chat_done": "結束輸入",
    "key.help": "說明",
    "key.lang": "English",
    "key.quit": "離開",
    "key.admin": "管理",
    "lobby.motd": "今日訊息：{text}",
    "admin.notice": "管理員傳來訊息：{text}",
    "invite.title": "歡迎，{name}！這個俱樂部只限會員。請輸入管理員給你的邀請碼：",
    "invite.hint": "邀請碼",
    "admin.title": "管理 · {view}",
    "admin.view.online": "線上",
    "admin.view.bans": "封鎖",
    "admin.view.members": "會員",
    "admin.view.audit": "管理紀錄",
    "admin.key.view": "清單",
    "admin.key.message": "傳訊",
    "admin.key.kick": "踢出",
    "admin.key.mute": "禁言",
    "admin.key.ban": "封鎖",
    "admin.key.lift": "解封",
    "admin.key.free": "釋出名稱",
    "admin.key.close": "關房",
    "admin.key.announce": "公告",
    "admin.key.motd": "今日訊息",
    "admin.key.invite": "邀請",
    "admin.key.revoke": "撤銷",
    "admin.key.add_admin": "加管理員",
    "admin.col.key": "金鑰",
    "admin.col.address": "位址",
    "admin.col.where": "位置",
    "admin.col.since": "上線（UTC）",
    "admin.col.number": "編號",
    "admin.col.ban": "封鎖對象",
    "admin.col.until": "直到（UTC）",
    "admin.col.reason": "原因",
    "admin.col.invited_by": "邀請人",
    "admin.col.state": "狀態",
    "admin.col.when": "時間（UTC）",
    "admin.col.who": "誰",
    "admin.col.what": "做了什麼",
    "admin.guest": "（訪客）",
    "admin.muted": "（禁言中）",
    "admin.lobby": "大廳",
    "admin.room": "{room} 號房",
    "admin.forever": "永久",
    "admin.kind.key": "金鑰",
    "admin.kind.name": "名稱",
    "admin.kind.address": "位址",
    "admin.member": "會員",
    "admin.revoked": "已撤銷",
    "admin.field.text": "內容：",
    "admin.field.name": "玩家名稱：",
    "admin.field.reason": "原因（玩家會看到）：",
    "admin.field.duration": "多久（30 分、2 小時、7 天、1 週或永久）：",
    "admin.default.mute": "1 小時",
    "admin.default.invite": "7 天",
    "admin.field.kind": "封鎖依據（金鑰、名稱或位址）：",
    "admin.field.value": "對象（金鑰指紋、名稱或位址／網段）：",
    "admin.field.confirm": "輸入 y 確認：",
    "admin.field.room": "房號：",
    "admin.field.uses": "可讓幾把金鑰加入：",
    "admin.field.expires": "有效期限（30 分、2 小時、7 天、1 週或永久）：",
    "admin.field.only_name": "只給這個名稱（空白：不限）：",
    "admin.field.key": "金鑰指紋（SHA256 開頭）：",
    "admin.ask.message": "傳訊息給 {name}",
    "admin.ask.kick": "關閉 {name} 的連線",
    "admin.ask.mute": "禁止 {name} 在聊天室發言",
    "admin.ask.ban": "封鎖 {name}",
    "admin.ask.free": "釋出名稱（擁有它的金鑰會失去這個名稱）",
    "admin.ask.close": "關閉房間（進行中的比賽作廢）",
    "admin.close.rooms": "各房間的房號：{rooms}",
    "admin.close.no_rooms": "目前沒有房間。",
    "admin.ask.announce": "立刻向所有人公告",
    "admin.ask.motd": "今日訊息（空白：不顯示）",
    "admin.ask.invite": "新的邀請碼",
    "admin.ask.revoke": "撤銷會員 {name}",
    "admin.ask.add_admin": "新增管理員",
    "admin.done.message": "已傳給 {name}。",
    "admin.done.kick": "{name} 已被請出。",
    "admin.done.mute": "{name} 已被禁言。",
    "admin.done.ban": "已封鎖。",
    "admin.done.lift": "已解除第 {number} 號封鎖。",
    "admin.done.free": "名稱已釋出。",
    "admin.done.close": "房間已關閉。",
    "admin.done.announce": "已公告。",
    "admin.done.motd": "今日訊息已設定。",
    "admin.done.invite": "邀請碼：{code}（交給新成員）",
    "admin.done.revoke": "已撤銷會員資格。",
    "admin.done.add_admin": "已新增管理員。",
    "err.admin.confirm": "請輸入 y 確認。",
    "err.admin.self": "這樣會封鎖你自己：請換個對象。",
    "err.admin.bad-kind": "請寫金鑰、名稱或位址。",
    "key.ready": "準備",
    "key.unready": "取消準備",
    "key.sit": "入座",
    "key.add_bot": "加電腦",
    "key.remove": "移除",
    "key.options": "設定",
    "key.start": "開始",
    "key.leave": "離開",
    "key.play": "出手",
    "key.actions": "動作",
    "key.view": "牌桌",
    "key.play_again": "再來一場",
    "key.reopen": "更改設定",
    "key.leaders": "排行榜",
    "key.online": "線上名單",
    "key.leaders_game": "換遊戲",
    "key.settings": "設定",
    "key.next_field": "下一欄",
    "key.choose": "選擇",
    "key.close": "關閉",
    "key.scroll": "捲動",
    "table.log_back": "↑ 已往回捲 · End：看最新",
    "col.room": "房間",
    "col.game": "遊戲",
    "col.seats": "座位",
    "col.watchers": "觀戰",
    "col.state": "狀態",
    "col.host": "房主",
    "col.player": "玩家",
    "col.points": "分數",
    "col.wins": "勝場",
    "col.seat": "座位",
    "col.kind": "類型",
    "col.status": "狀況",
    "col.rank": "名次",
    "col.matches": "場數",
    "col.rate": "勝率",
    "col.rate_short": "勝率",
    "col.avg_points": "平均分",
    "col.record": "勝/場",
    "game.sultans": "推翻蘇丹",
    "game.overlord": "刺殺領主",
    "game.short.sultans": "推翻蘇丹",
    "game.short.overlord": "刺殺領主",
    "state.waiting": "等待中",
    "state.playing": "遊戲中",
    "state.finished": "已結束",
    "lobby.online": "線上玩家（{n}）",
    "lobby.online_more": "另 {n} 人（o）",
    "lobby.leaders": "排行榜（b）",
    "leaders.title": "排行榜 · {game}",
    "leaders.all": "所有遊戲",
    "leaders.foot": "按 g 看各遊戲自己的排行榜和分數 · 按 Escape 關閉。",
    "leaders.how": "依勝率排名，並看場數多寡（F1 有說明）；分不出高下的玩家名次相同。",
    "lobby.no_leaders": "還沒有計分的比賽（用金鑰登入的玩家才會計分，訪客不計）。",
    "lobby.fingerprint": "主機金鑰 {fp}",
    "lobby.guest": "訪客",
    "lobby.as_guest": "{name}（訪客）",
    "lobby.count_online": "{n} 人在線",
    "lobby.rooms": "房間（{n}）",
    "lobby.no_rooms": "還沒有房間：按 c 開一個。",
    "lobby.private": "私人",
    "lobby.your_seat": "你的座位",
    "lobby.seat_kept": "你在「{room}」的座位保留著：選它按 Enter 回去。",
    "app.small": "這個終端機只有 {width}×{height}，太小了，畫面會有部分看不到：請把視窗放大到至少 {need_w}×{need_h}（80×24 以上最好）。",
    "lobby.renamed": "你的名稱是 {name}：名稱只保留文字、數字和 - _ .，最多 20 個字（你輸入的是 {asked}）。",
    "chat.placeholder.lobby": "t：對大廳裡的所有人說話",
    "chat.placeholder.room": "t：對這個房間說話",
    "chat.full": "一則聊天訊息最多 {max} 個字：多出來的沒有打進去。先送出這一則，再接著打。",
    "sys.sat_down": "{name} 入座了",
    "sys.moved": "{name} 換到 {seat} 號座位",
    "sys.back": "{name} 回來了",
    "sys.watching": "{name} 在觀戰",
    "sys.left": "{name} 離開了",
    "sys.absent": "{name} 不在牌桌旁：下一場比賽讓出他的座位",
    "sys.left_autoplay": "{name} 離開了；由電腦代打他的座位",
    "sys.away_autoplay": "{name} 暫時離線；由電腦代打他的座位",
    "sys.dropped": "{name} 斷線了；{secs} 秒內沒回來就由電腦代打他的座位",
    "sys.new_host": "{name} 成為新房主",
    "sys.kicked": "{name} 被房主請出房間",
    "sys.announce": "公告：{text}",
    "sys.room_closed_admin": "管理員關閉了 {room} 號房：{reason}",
    "sys.room_closed_admin_named": "管理員關閉了 {room} 號房（{title}）：{reason}",
    "sys.settings_changed": "房主更改了設定",
    "sys.settings_changed_what": "房主更改了設定：{changes}",
    "changed.name": "房間名稱",
    "changed.seats": "座位數",
    "changed.turn_timer": "回合計時",
    "changed.window_timer": "回應計時",
    "changed.bot_delay": "電腦思考時間",
    "changed.strict_windows": "嚴格回應時機",
    "changed.window_min": "回應時機最短時間",
    "changed.bot_level": "電腦強度",
    "changed.bot_levels": "各座位電腦強度",
    "changed.between_rounds": "局間時間",
    "changed.private": "私人",
    "changed.code": "密碼",
    "changed.rounds": "局數",
    "changed.first_to": "獲勝分數",
    "changed.turn_limit": "每局回合上限",
    "changed.notebook": "筆記本",
    "changed.round_limit": "局數上限",
    "changed.coronation": "加冕金額",
    "changed.expansion_ranks": "擴充角色",
    "changed.ruleset": "規則",
    "changed.options": "遊戲選項",
    "sys.game_changed": "房主把遊戲換成《{game}》",
    "sys.match_begins": "《{game}》比賽開始",
    "sys.restarted": "伺服器重新啟動了；比賽繼續進行",
    "sys.restarted_room": "伺服器重新啟動了；房間維持原樣",
    "sys.match_over": "比賽結束；獲勝者：{names}",
    "sys.reopened": "房主請大家回到房間，先更改設定",
    "sys.match_over_nobody": "比賽結束；沒有人獲勝",
    "sys.timed_out": "{names} 時間到了：系統代出預設動作",
    "sys.away_standin": "{name} 暫離（連續兩次超時）：由代打電腦玩他的座位，直到他按任一鍵",
    "sys.handed_standin": "房主 {host} 把 {name} 的座位交給代打電腦，直到 {name} 按任一鍵",
    "sys.standin_back": "{name} 回來了，重新自己玩他的座位",
    "sys.left_match": "{name} 退出了比賽；由電腦代打他的座位直到結束",
    "sys.guest_gone": "{name}（訪客）沒有及時回來；由電腦代打他的座位直到結束",
    "button.ok": "確定",
    "button.cancel": "取消",
    "button.yes": "是",
    "button.no": "否",
    "button.save": "儲存",
    "button.create": "建立",
    "dialog.code": "「{room}」是私人房間。請輸入密碼：",
    "dialog.code_hint": "房主給你的密碼",
    "dialog.settings.create": "開新房間",
    "dialog.language": "設定",
    "dialog.language.foot": "Enter 選擇語言，或開關一項設定；Escape 關閉。任何畫面都可按 F2 切換語言。",
    "settings.lang.current": "✓ {name}（目前的語言）",
    "settings.bell.on": "輪到你時響鈴：開（遊戲等你決定時，終端機會響鈴）",
    "settings.bell.off": "輪到你時響鈴：關",
    "settings.ask_every.on": "每個回應時機都問我：開（只能不回應時也要你回答）",
    "settings.ask_every.off": "每個回應時機都問我：關（只能不回應時，由房間替你不回應）",
    "dialog.settings.change": "房間設定",
    "field.game": "遊戲",
    "field.name": "房間名稱",
    "field.name.hint": "可留空",
    "field.seats": "座位數",
    "field.seats.range": "座位數（{lo}-{hi}）",
    "field.rounds": "局數",
    "field.match": "比賽方式",
    "field.match.rounds": "固定局數",
    "field.match.first_to": "先到 N 分",
    "field.first_to": "獲勝分數（最多 15 局）",
    "field.first_to.hint": "1-{hi}",
    "field.turn_limit": "每局回合上限（至少 50）",
    "field.notebook": "筆記本",
    "field.notebook.box": "顯示你看過的角色卡",
    "field.turn_timer": "回合計時（秒，0 = 不限）",
    "field.window_timer": "回應計時（秒，0 = 不限）",
    "field.bot_delay": "電腦思考（秒）",
    "field.strict_windows": "嚴格回應時機",
    "field.strict_windows.box": "每個時機每人都要回答",
    "field.window_min": "時機最短（秒）",
    "field.bot_level": "電腦強度",
    "field.bot_levels": "各座位強度",
    "field.bot_levels.hint": "例：2：簡單 4：普通",
    "form.bot_levels": "各座位強度：座位：強度，例：2：{level}（座位 {lo}-{hi}）。",
    "field.between_rounds": "局間等待（秒）",
    "field.private": "私人",
    "field.private.box": "需要密碼才能加入",
    "field.code": "密碼",
    "field.code.hint": "留空：自動產生 4 位數字",
    "form.range": "{field}：請輸入 {lo} 到 {hi} 之間的數字。",
    "form.first_to_needed": "先到 N 分：幾分獲勝？請輸入 1 到 {hi} 之間的數字。",
    "form.turn_limit_min": "每局回合上限：至少 {lo} 回合（房規）。",
    "confirm.quit": "要離開 throneroom 嗎？",
    "confirm.kick": "要把 {name} 請出房間嗎？他不能再加入或觀戰。",
    "confirm.leave_room": "要離開這個房間嗎？",
    "confirm.leave_table": "要離開牌桌嗎？比賽會繼續進行，你回來之前由電腦代打你的座位；座位仍然是你的，可以從大廳回來。",
    "confirm.leave_match": "要永久退出這場比賽嗎？由電腦代打你的座位直到結束，結果會標明你已退出（排行榜上算一場沒贏的比賽），你可以立刻加入或建立別的房間。",
    "confirm.standin": "要把 {name}（{seat}）的座位交給代打電腦嗎？在 {name} 於牌桌上按任一鍵之前，由電腦照電腦的速度代打；聊天室會說明。",
    "standin.title": "要把誰的座位交給代打電腦？",
    "room.host_is": "房主 {name}",
    "room.unnamed": "{host} 的牌桌",
    "room.spectators": "觀戰：{names}",
    "room.seats": "座位 {taken}/{n}",
    "room.removed": "你已經不在那個房間裡了。",
    "room.code_is": "密碼：{code}",
    "room.status.watching": "你正在觀戰。按 Enter 坐上空位。",
    "room.status.watching_full": "你正在觀戰。沒有空位：房主可以移除電腦（d）讓出座位。",
    "room.status.host": "房主：a 加電腦、d 移除、o 設定、s 開始。",
    "room.status.ready": "你已準備好，等房主開始。",
    "room.status.not_ready": "準備好了請按 r。",
    "seat.empty": "（空位）",
    "seat.away": "離線",
    "seat.autoplay": "電腦代打",
    "seat.standin": "暫離",
    "seat.left": "已退出",
    "seat.ready": "已準備 ✓",
    "seat.not_ready": "未準備",
    "kind.empty": "空位",
    "kind.human": "玩家",
    "kind.bot": "電腦",
    "kind.guest": "訪客",
    "table.seat_you": "你是 {seat} 號座位",
    "table.spectator": "觀戰中",
    "table.bot_name": "電腦 {n}",
    "table.bot_level": "{name}·{level}",
    "level.easy": "簡單",
    "level.normal": "普通",
    "level.strong": "強",
    "table.no_view": "比賽還沒開始。",
    "table.finished": "比賽結束。",
    "table.between_rounds": "本局結束，下一局即將開始。",
    "table.finished_host": "比賽結束。按 p 再來一場，或按 o 更改設定。",
    "table.watching": "你正在觀戰：只看得到公開的資訊。",
    "table.your_move": "輪到你了",
    "table.optional": "不是你的回合，但你仍可使用下列動作。",
    "table.waiting": "等待其他玩家……",
    "table.actions": "你的動作（{n}）",
    "table.no_actions": "目前沒有動作",
    "table.countdown": "⏱ {s} 秒",
    "table.key.go_on": "繼續",
    "table.log_private": "◆",
    "why.timeout": "你的時間到了：系統替你出了預設動作。",
    "why.timeout_pass": "你的時間到了：系統替你選擇不回應。",
    "why.quick_pass": "你沒有可以回應的：系統替你選擇不回應。",
    "why.standin": "你不在時，代打的電腦替你出了這一步。",
    "table.key.results": "結果",
    "table.key.log": "紀錄",
    "table.results.round": "第 {n} 局結果",
    "table.break.go_on": "Enter：繼續",
    "table.break.ready": "你已準備好下一局。",
    "table.break.waiting": "等待 {names}。",
    "table.break.next_in": "下一局 {s} 秒後開始。",
    "results.key.go_on": "繼續",
    "results.key.other": "其他局",
    "results.key.table": "牌桌",
    "log.key.search": "搜尋",
    "log.key.next": "下一個",
    "log.title": "整場紀錄 · {n} 行",
    "log.foot": "/ 搜尋 · n 下一個 · PgUp/PgDn 捲動 · Esc 回到牌桌",
    "log.not_found": "「{text}」：找不到。",
    "log.found": "「{text}」：第 {i} 個，共 {n} 個 · n：下一個",
    "log.search_hint": "搜尋紀錄：輸入字詞後按 Enter",
    "table.played": "已送出：{action}",
    "err.room-full": "那個房間已經滿了。",
    "err.bad-level": "這個遊戲的電腦沒有這個強度。",
    "err.stale": "你的動作送到前牌局已經變了：請再看一次再選。",
    "err.illegal": "現在不能這樣做：{msg}",
    "err.illegal.illegal": "現在不能這樣做。",
    "err.illegal.not-pending": "現在沒有需要你回應的事：請等輪到你或有人詢問你。",
    "err.illegal.parse": "這不是這個遊戲的動作。",
    "err.illegal.round-over": "這一局已經結束了。",
    "err.illegal.game-over": "遊戲已經結束了。",
    "err.illegal.bad-seat": "沒有那個座位。",
    "err.not-host": "只有房主可以這樣做。",
    "err.bad-code": "私人房間的密碼不對。",
    "err.code-needed": "那是私人房間：請輸入密碼。",
    "err.code-tries": "密碼錯太多次了：請等一分鐘再試。",
    "err.chat-fast": "一下子發太多訊息了：請稍等（你的訊息還留在輸入列）。",
    "err.rooms-full": "伺服器已開了 {max} 個房間，已達上限：請加入其中一個，或稍後再試。",
    "err.rooms-source": "來自你的位址的玩家已開了 {max} 個房間，已達一個位址的上限：請加入其中一個，或先關掉一個。",
    "err.chat-storage": "主機無法儲存你的訊息（磁碟可能已滿）：請稍後再試（你的訊息還留在輸入列）。",
    "err.chat-long": "一則聊天訊息最多 {max} 個字：請縮短（你的訊息還留在輸入列）。",
    "err.no-room": "那個房間已經不存在了。",
    "err.closed": "你已經不在那個房間裡了。",
    "err.closed-admin": "管理員關閉了那個房間：{reason}",
    "err.muted": "管理員已禁止你在聊天室發言：{reason}",
    "err.muted.timed": "管理員已禁止你在聊天室發言，直到 {until}：{reason}",
    "err.name-owned": "這個名稱屬於另一把金鑰：請換個名稱連線。",
    "err.not-needed": "你已經是會員了。",
    "err.bad-invite": "這個邀請碼無效（已用完、過期或打錯）。",
    "err.invite-name": "這個邀請碼是給另一個名稱的。",
    "err.admin": "{detail}",
    "err.admin.bad-duration": "不是有效的時間長度：請寫 30 分、2 小時、7 天、1 週或永久。",
    "err.admin.bad-address": "不是位址或網段（例如 203.0.113.5 或 203.0.113.0/24）。",
    "err.admin.bad-key": "金鑰指紋的開頭是 SHA256，用 ssh-keygen -lf 可以看到。",
    "err.admin.no-reason": "請寫明原因：玩家會看到。",
    "err.admin.not-found": "找不到：{detail}",
    "err.admin.not-online": "{detail} 不在線上。",
    "err.admin.config-admin": "這位管理員寫在設定檔裡：請到設定檔中移除。",
    "err.admin.bad-uses": "邀請碼可用 1 到 1000 次。",
    "err.admin.empty": "要說什麼？",
    "err.kicked": "房主把你請出了那個房間。",
    "err.banned": "房主把你請出了那個房間：你不能再加入或觀戰。",
    "err.in-progress": "那場比賽已經開始了，請改為觀戰。",
    "err.in-match": "你在一場進行中的比賽裡有座位：比賽結束前它都是你的（在那個房間上按 Enter 回去；在牌桌上按 q 永久退出比賽）。",
    "err.playing": "比賽進行中，現在不能更改。",
    "err.not-playing": "這個房間目前沒有比賽在進行。",
    "err.not-seated": "你在這個房間裡沒有座位。",
    "err.not-ready": "還有人沒準備好：{msg}",
    "err.not-ready.waiting": "還有人沒準備好：等 {names}。",
    "err.seat-taken": "那個座位已經有人了。",
    "err.seats-taken": "要取消的座位上還有玩家，請他們先換位子。",
    "err.bad-seat": "那個座位不能這樣做：{msg}",
    "err.bad-seat.none": "沒有 {seat} 號座位。",
    "err.bad-seat.no-bot": "{seat} 號座位上沒有電腦。",
    "err.bad-seat.no-player": "{seat} 號座位上沒有玩家。",
    "err.bad-seat.self": "房主不能請自己離開：要離開房間請按 Escape。",
    "err.bad-seat.self-standin": "不能把自己的座位交給代打電腦：按 Escape 離開牌桌，你回來之前由電腦代打。",
    "err.bad-seat.standin": "{seat} 號座位已經由代打電腦在玩了。",
    "err.bad-seats": "座位數不對：{msg}",
    "err.bad-game": "這裡沒有提供那個遊戲。",
    "err.bad-options": "這些設定無效：{msg}",
    "err.bad-lang": "沒有那個語言。",
    "err.engine": "遊戲無法執行：{msg}",
    "err.storage": "主機無法儲存，請再試一次。",
    "err.other": "被拒絕：{msg}",
    "summary.seats": "{n} 個座位",
    "summary.rounds": "{n} 局",
    "summary.rounds_one": "1 局",
    "summary.first_to": "先到 {n} 分（最多 {cap} 局）",
    "summary.first_to_one": "先到 1 分（最多 {cap} 局）",
    "summary.turn_limit": "回合上限 {n}",
    "summary.notebook_on": "筆記本開啟",
    "summary.notebook_off": "筆記本關閉",
    "summary.turn_timer": "回合 {s} 秒",
    "summary.turn_timer_off": "回合不限時",
    "summary.window_timer": "回應 {s} 秒",
    "summary.window_timer_off": "回應不限時",
    "summary.bot_delay": "電腦思考 {s} 秒",
    "summary.quick_windows": "快速回應時機（至少 {s} 秒）",
    "summary.strict_windows": "嚴格回應時機（每人都要回答）",
    "summary.bot_level": "電腦{level}",
    "summary.bot_seat": "座位 {n} {level}",
    "summary.between_rounds": "結果停留 {s} 秒",
    "view.seats": "座位",
    "view.seat": "座位",
    "view.name": "名字",
    "view.card": "角色卡",
    "view.own_card": "你的角色",
    "view.my_card": "你的角色",
    "view.you": "你",
    "view.round": "局",
    "view.rounds": "各局",
    "view.turn": "回合",
    "view.phase": "階段",
    "view.active": "主動玩家",
    "view.pending": "等待回應",
    "view.log": "紀錄",
    "view.events": "事件",
    "view.history": "歷程",
    "view.notes": "筆記",
    "view.notebook": "筆記本",
    "view.scores": "得分",
    "view.totals": "總分",
    "view.points": "分數",
    "view.spare": "中央牌",
    "view.crown": "加冕牌",
    "view.revealed": "公開",
    "view.hidden": "隱藏",
    "view.dead": "死亡",
    "view.alive": "存活",
    "view.detained": "被拘留",
    "view.captured": "被捕捉",
    "view.exhausted": "疲憊",
    "view.side": "陣營",
    "view.prediction": "預言",
    "view.declared": "宣告陣營",
    "view.winner": "勝方",
    "view.winners": "勝者",
    "view.gold": "金錢",
    "view.hand": "手牌",
    "view.hand_size": "手牌數",
    "view.role": "角色",
    "view.rank": "階級",
    "view.deck": "牌堆",
    "view.discard": "棄牌堆",
    "view.known": "已知",
    "view.stale": "可能已變",
    "view.index": "座位",
    "view.your_card": "你的角色",
    "view.spare_card": "中央牌",
    "view.your_bans": "不能與之交換",
    "view.round_number": "第幾局",
    "view.turns_played": "已進行回合",
    "view.turn_limit": "回合上限",
    "view.between_rounds": "局間",
    "view.over": "已結束",
    "view.tiebreak": "同分判定",
    "view.max_rounds": "最多局數",
    "view.first_to": "先達分數",
    "view.players": "玩家數",
    "view.viewer": "你的座位",
    "view.first": "起始玩家",
    "view.extra_turn": "額外回合",
    "view.window": "回應時機",
    "view.legal": "合法動作",
    "view.outcome": "結果",
    "view.reason": "原因",
    "view.kind": "種類",
    "view.actor": "行動者",
    "view.target": "目標",
    "view.asked": "被詢問者",
    "view.waiting": "尚未回答",
    "view.answered": "已回答",
    "view.your_answer": "你的回答",
    "view.foreseen": "被占卜",
    "view.must_hide": "必須隱藏",
    "view.playing": "正在行動",
    "view.forced": "被操控",
    "view.cards": "角色卡",
    "view.trails": "角色卡去向",
    "view.steps": "經過",
    "view.cause": "原因",
    "view.audience": "可見者",
    "view.private": "私人",
    "view.negated": "否定",
    "view.how": "方式",
    "view.stale_turn": "變動回合",
    "view.number": "局",
    "view.total": "總分",
    "view.tied": "同分者",
    "view.code": "代碼",
    "view.role_name": "角色",
    "view.income": "收入",
    "view.token": "處決標記",
    "view.hand_limit": "手牌上限",
    "view.is_ruler": "統治者",
    "view.holds_order": "持有指示物",
    "view.shown": "公開手牌",
    "view.ruler": "統治者",
    "view.holder": "指示物持有者",
    "view.path": "指示物路徑",
    "view.transfers": "傳遞次數",
    "view.centre": "中央角色",
    "view.deck_size": "牌堆張數",
    "view.chain": "反制鏈",
    "view.banned": "禁用卡",
    "view.uprising_by": "暴動發起者",
    "view.uprising_named": "暴動目標",
    "view.prompt": "等待回應",
    "view.owed": "尚未回答",
    "view.round_limit": "局數上限",
    "view.coronation": "加冕門檻",
    "view.ruleset": "規則組",
    "view.direction": "方向",
    "view.params": "細節",
    "view.n": "序號",
    "help.title": "說明",
    "help.keys.title": "按鍵",
    "help.keys": (
        "任何畫面：F1 說明，F2 切換 English/中文，Tab 在畫面各區之間移動，Escape 返回，Ctrl+C 或 Ctrl+Q 離開（和 q 一樣會先確認）。"
        "也可以用滑鼠點選列、按鈕和下方的按鍵列。\n"
        "大廳：方向鍵選房間，Enter 加入，w 觀戰，c 開房間，t 聊天，b 完整排行榜（在其中按 g 看各遊戲的），o 所有線上玩家，l 開啟設定（語言、輪到你時響鈴、每個回應時機都問我），q 離開。\n"
        "房間：r 準備／取消準備，Enter 坐上選到的空位，t 聊天，Escape 離開。"
        "房主另有：a 加電腦，d 移除選到的電腦或玩家，o 設定（也可換遊戲），s 開始。\n"
        "牌桌：下方的按鍵列列出你現在能做的事：每種動作一個鍵，再用號碼或方向鍵選座位或牌，"
        "Enter 送出，Escape 返回（除非房間的計時到了，系統不會替你出手）。t 聊天，Tab 切換下方窗格，F1 說明這個遊戲的"
        "按鍵、符號和你手上的東西，p 再來一場或 o 先更改設定（房主，比賽結束後），Escape 離開牌桌（座位仍是你的；你回來之前由電腦代打）。"
    ),
    "help.game.title": "{game}（{lo}-{hi} 人）",
    "help.leaders.title": "排行榜",
    "help.leaders": (
        "用金鑰登入的玩家才會上榜（訪客和電腦不會）。每一列是勝場、場數和勝率。"
        "排名依勝率，並看是多少場打出來的（取勝率 95% Wilson 信賴區間的下限）："
        "1 場 1 勝可能只是運氣，所以 4 場 3 勝排在它前面，10 場 5 勝也是；還沒有勝場時，場數多少不影響排名。"
        "分不出高下的玩家名次相同。在各遊戲自己的排行榜（g）上，勝率相同時看每場平均分數（平均分）。"
    ),
    "help.game.none": "這個遊戲還沒有規則摘要。",
    "table.timed_out": "你先前超時了：系統已替你出了預設動作。",
    "table.away_you": "你暫離中：代打電腦正在玩你的座位。按任一鍵拿回座位。",
    "table.back": "你回來了：座位又是你的了。",
    "table.key.standin": "交給電腦",
    "table.key.leave_match": "退出比賽",
    "table.left_seats": "比賽結束前退出（由電腦代打到最後）：{names}",
    "table.help.standin": (
        "q 永久退出這場比賽：由電腦代打你的座位直到結束，結果標明你已退出（排行榜上算一場沒贏的比賽），"
        "你可以立刻加入別的房間。z（房主）把某位玩家的座位交給代打電腦。連續兩次超時的座位會暫離："
        "由代打電腦玩，直到該玩家在牌桌上按任一鍵。\n"
        "座位標記：暫離（代打電腦在玩）· 已退出（玩家退出了比賽）· 離線（斷線）· 電腦代打（玩家不在牌桌）。"
    ),
    "pick.not_a_choice": "現在不能選 {n}。",
    "pick.enter_again": "剛才的數字不能選：再按 Enter 會送出反白的選項。",
    "table.help.leave": "Esc 離開牌桌（座位仍是你的；你回來之前由電腦代打）。",
    "table.help.leave_watching": "Esc 停止觀戰。",
    "help.game.crown": "{n} 元",
    "help.game.crown_either": "40 元（房間選了較短的遊戲則是 30 元）",
    "help.foot": "按 Escape 或 F1 關閉說明。",
    "help.close": "按 Escape 關閉。",
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
    "help.game.overlord": (
        "每人有一張角色（有階級和收入）、5 元和謀略卡。每局：抽 2 張牌（超過手牌上限的部分不抽），"
        "領取收入（第 1 局沒有）；若領主有 {crown}就加冕獲勝。\n"
        "接著是暗殺階段：領主把暗殺指示物交給另一位玩家。拿到的人必須用盾牌卡傳出去"
        "（每張卡說明可以傳給誰並附帶效果）、用角色能力傳出（農夫、歹徒）、"
        "在沒有任何盾牌卡時打出「絕境」卡，或者死亡。任何人都能用「報復」反制一張卡，"
        "或用「認罪」把指示物拿過來。\n"
        "領主死亡時本階段結束，存活者從中央換取更高的角色。領主是最後存活者時也獲勝。"
        "最後一局結束後，錢最多的人獲勝。"
    ),
}

# the Sultans of Karaya table's keys ("sk.*") live beside its screen
from tui.overlord.catalogue import OVERLORD_EN, OVERLORD_ZH  # noqa: E402
from tui.sultans.catalogue import SULTANS_EN, SULTANS_ZH  # noqa: E402

EN.update(SULTANS_EN)
ZH.update(SULTANS_ZH)
EN.update(OVERLORD_EN)
ZH.update(OVERLORD_ZH)

CATALOGUES: dict[Lang, dict[str, str]] = {"en": EN, "zh": ZH}


def has_key(key: str) -> bool:
    return key in EN


def t(key: str, lang: Lang = "en", /, **params: object) -> str:
    """The message ``key`` in ``lang`` with ``params`` filled in.

    A key missing in ``lang`` falls back to English, then to the key itself,
    so a gap shows up as text rather than a crash.
    """
    template = CATALOGUES.get(lang, EN).get(key) or EN.get(key) or key
    if not params:
        return template
    try:
        if lang == "zh" and template is ZH.get(key):
            return _fill_chinese(template, params)
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def _joins(left: str, right: str) -> bool:
    """No space between these two characters in Chinese: both Chinese, or one
    a full-width bracket or stop (it carries its own space)."""
    if _wide(left) and _wide(right):
        return True
    return (_wide(left) and unicodedata.category(left)[0] == "P" and not right.isspace()) or (
        _wide(right) and unicodedata.category(right)[0] == "P" and not left.isspace()
    )


@functools.lru_cache(maxsize=4096)
def _pieces(template: str) -> tuple[tuple[str, str | None, str | None, str | None], ...]:
    return tuple(string.Formatter().parse(template))


def _fill_chinese(template: str, params: Mapping[str, object]) -> str:
    """``template.format(**params)``, but a space the template puts between
    Chinese and a param stays only where the param's text is not Chinese:
    "指示物到了 {dst}" says "指示物到了 alice（1）" and "指示物到了你（0）";
    "{who} 持有指示物" says "Bot 3（3）持有指示物", and "{src} 付給 {dst} {gold} 元"
    "國庫付給你（0）2 元" (a full-width bracket is its own space)."""
    out: list[str] = []
    for literal, field, spec, conv in _pieces(template):
        text = ""
        if field is not None:
            value = params[field] if field else ""
            if conv == "r":
                value = repr(value)
            elif conv == "s":
                value = str(value)
            text = format(value, spec or "")
        after = literal[1:2] or text[:1]  # what a leading space stands before
        if out and out[-1] and literal[:1] == " " and after and _joins(out[-1][-1], after):
            literal = literal[1:]  # "{who} 持有" after a value that ends in Chinese
        if text and literal[-1:] == " " and len(literal) > 1 and _joins(literal[-2], text[0]):
            literal = literal[:-1]  # "到了 {who}" before a value that starts in Chinese
        out.append(literal)
        out.append(text)
    return "".join(out)


def params_of(template: str) -> set[str]:
    """The ``str.format`` field names used in ``template``."""
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(template) if name}


def game_title(game: str, lang: Lang, *, short: bool = False, fallback: str = "") -> str:
    """A game's title in ``lang`` (``short`` for narrow columns); a game the
    catalogue does not know yet shows ``fallback`` (its English title) or its id."""
    key = f"game.short.{game}" if short else f"game.{game}"
    return t(key, lang) if has_key(key) else (fallback or game)


def room_title(name: str, host: str, lang: Lang) -> str:
    """A room's name as ``lang`` shows it: the name its host gave it, or,
    left unnamed, "alice's table" / "alice 的牌桌" in each reader's language."""
    return name or t("room.unnamed", lang, host=host)


NAMES_SEP = "\n"
"""Between the names of a system line's ``names`` param (no name has a line
break: names are cleaned of control characters)."""


def said_names(names: str, lang: Lang) -> str:
    """A ``names`` param (names apart by ``NAMES_SEP``) as ``lang`` lists them:
    "alice, bob"; "alice、bob"; a bot as :func:`shown_name` names it."""
    return t("punct.list", lang).join(shown_name(name, lang) for name in names.split(NAMES_SEP))


def said_changes(changes: str, lang: Lang) -> str:
    """A ``changes`` param (setting ids apart by ``NAMES_SEP``, ``changed.<id>``
    in the catalogue) as ``lang`` lists them: "seats, reaction timer"."""
    return t("punct.list", lang).join(t(f"changed.{c}", lang) for c in changes.split(NAMES_SEP))


def guest_marked(name: str, guest: bool, lang: Lang) -> str:
    """A player's name as lists show it: "(guest)" after a guest's (issue 3:
    keyless players are "shown as guests")."""
    return t("lobby.as_guest", lang, name=name) if guest else name


def shown_name(name: str, lang: Lang) -> str:
    """A seat's name as screens show it: a player's as it is, the host's bot
    ("Bot 2") in ``lang`` ("電腦 2"; a player's name has no space, so "Bot 2"
    is only ever a bot)."""
    number = name.partition(" ")[2]
    is_bot = number.isdigit() and name == bot_name(seat_index(int(number)))
    return t("table.bot_name", lang, n=number) if is_bot else name


def system_line(key: str, params: Mapping[str, str], lang: Lang) -> str | None:
    """A host system chat line (``ChatLine.key``/``params``) in ``lang``, or None
    when the catalogue cannot say it (an unknown key, a missing param, a game it
    does not know): the screen then shows the line's English ``text``.

    A ``game`` param is a game id and shows as the game's title; a ``title``
    with ``room_name`` and ``host`` is a room's title in ``lang``; every other
    param is put in literally (names are never markup: screens render the
    result as plain text)."""
    if not key.startswith("sys.") or not has_key(key):
        return None
    values: dict[str, object] = dict(params)
    if "names" in params:
        values["names"] = said_names(params["names"], lang)
    if "changes" in params:
        if not all(has_key(f"changed.{c}") for c in params["changes"].split(NAMES_SEP)):
            return None
        values["changes"] = said_changes(params["changes"], lang)
    if "title" in params and "room_name" in params and "host" in params:  # an unnamed room is "bob's table" / "bob 的牌桌"
        values["title"] = room_title(params["room_name"], params["host"], lang)
    game = params.get("game")
    if game is not None:
        if not has_key(f"game.{game}"):
            return None
        values["game"] = game_title(game, lang)
    if not params_of(EN[key]) <= values.keys():
        return None
    return t(key, lang, **values)


def field_label(name: str, lang: Lang) -> str:
    """A view field's label: translated when known, else the field name made readable."""
    key = f"view.{name}"
    if has_key(key):
        return t(key, lang)
    return name.replace("_", " ").capitalize()


def error_text(err: ClientError, lang: Lang) -> str:
    """A host refusal in the player's language (its English message when the code is new).

    A refusal with a ``reason`` the catalogue knows (``err.<code>.<reason>``,
    e.g. an illegal action the engine refused as ``not-pending``) says that
    reason; the English detail follows in parentheses."""
    key = f"err.{err.code}"
    reason = getattr(err, "reason", "")
    if reason and has_key(f"{key}.{reason}"):
        key = f"{key}.{reason}"
    elif not has_key(key):
        key = "err.other"
    params = dict(getattr(err, "params", {}))
    if "names" in params:  # a list of names, as system lines carry it (NAMES_SEP)
        params["names"] = said_names(params["names"], lang)
    return t(key, lang, **params, msg=str(err))


SULTANS_FIRST_TO_CAP = 15
"""S-MATCH-1: a first-to-N Sultans match ends after 15 rounds at most
(``engine.sultans.match.FIRST_TO_CAP``; a test keeps the two equal)."""


@functools.lru_cache(maxsize=32)
def _expansion_roles(ruleset: str, seats: int) -> dict[int, str]:
    """K-XROLE-1: rank -> the expansion role that can replace it, for the ranks
    in play at ``seats`` (empty when the rule set has no such table)."""
    from engine.overlord.rules import load_ruleset  # (only rooms of Kill the Overlord read it)

    try:
        rs = load_ruleset(ruleset)
        ranks = {rs.role(r).rank for r in rs.role_sets[seats]}
    except (KeyError, ValueError):
        return {}
    out: dict[int, str] = {}
    for rank in sorted(ranks, reverse=True):
        role = rs.expansion_for_rank(rank)
        if role is not None:
            out[rank] = role
    return out


def expansion_choices(ruleset: str, seats: int) -> list[tuple[int, str, str | None]]:
    """K-XROLE-1: every expansion role of the rule set, highest rank first, as
    (rank, role, the base role of that rank at ``seats``, or None when no role
    of that rank is in play there); empty for a rule set that cannot be read."""
    from engine.overlord.rules import load_ruleset  # (only rooms of Kill the Overlord read it)

    try:
        rs = load_ruleset(ruleset)
    except ValueError:
        return []
    base = {rs.role(r).rank: r for r in rs.role_sets.get(seats, [])}
    return [(r.rank, r.id, base.get(r.rank)) for r in sorted(rs.roles, key=lambda r: -r.rank) if r.expansion]


def _expansion_summary(seats: int, ruleset: str, ranks: list[object], lang: Lang) -> list[str]:
    """The expansion roles a room of Kill the Overlord plays with, by name; the
    ranks picked that have no role at this many seats said apart (K-XROLE-1:
    "only for ranks in play at that player count")."""
    roles = _expansion_roles(ruleset, seats)
    picked = sorted({r for r in ranks if isinstance(r, int)}, reverse=True)
    if not roles:  # (an unknown rule set: the ranks as picked)
        return [t("summary.expansion_ranks", lang, ranks=" ".join(str(r) for r in picked))]
    names = [t(f"ov.role.{roles[r]}", lang) for r in picked if r in roles]
    out = sorted(r for r in picked if r not in roles)
    parts = [t("summary.expansion", lang, roles=t("punct.list", lang).join(names))] if names else []
    if out:
        key = "summary.expansion_out_one" if len(out) == 1 else "summary.expansion_out"
        parts.append(t(key, lang, ranks=" ".join(str(r) for r in out), n=seats))
    return parts


def level_name(level: str, lang: Lang) -> str:
    """A bot level (engine.api.BOT_LEVELS) in ``lang``: "strong", "強"."""
    return t(f"level.{level}", lang)


def bot_levels_summary(settings: RoomSettings, lang: Lang) -> str:
    """The room's bot levels: "bots normal (seat 2 strong, seat 4 easy)"."""
    out = t("summary.bot_level", lang, level=level_name(settings.bot_level, lang))
    seats = [
        t("summary.bot_seat", lang, n=seat_number(i), level=level_name(level, lang))
        for i, level in sorted(settings.bot_levels.items())
        if level != settings.bot_level
    ]
    return f"{out} ({t('punct.list', lang).join(seats)})" if seats else out


def seat_shown(info: SeatInfo, name: str, lang: Lang) -> str:
    """A seat's name as seats and results show it: a bot's with its level
    ("Bot 2·strong", "電腦 2·強"), a player's as :func:`shown_name` has it."""
    shown = shown_name(name, lang)
    if info.kind == "bot" and info.level is not None and not info.left:  # (a left seat shows its player's name)
        return t("table.bot_level", lang, name=shown, level=level_name(info.level, lang))
    return shown


def settings_summary(settings: RoomSettings, lang: Lang) -> str:
    """The waiting room's line of settings: seats, the game's options, timers.

    Sultans of Karaya options missing from ``settings.options`` are the
    engine's defaults (the create dialog leaves them out)."""
    parts = [t("summary.seats", lang, n=settings.seats)]
    rounds, first_to = settings.options.get("rounds"), settings.options.get("first_to")
    if settings.game == "sultans" and isinstance(first_to, int):
        parts.append(t("summary.first_to_one" if first_to == 1 else "summary.first_to", lang, n=first_to, cap=SULTANS_FIRST_TO_CAP))
    elif isinstance(rounds, int):
        parts.append(t("summary.rounds_one" if rounds == 1 else "summary.rounds", lang, n=rounds))
    expansion: list[str] = []  # said last: two lines cut the timers off a long one at 80 columns
    if settings.game == "overlord":  # Kill the Overlord's options (keys in tui/overlord/catalogue.py)
        limit, crown = settings.options.get("round_limit"), settings.options.get("coronation")
        ranks = settings.options.get("expansion_ranks")
        if isinstance(limit, int):
            parts.append(t("summary.round_limit_one" if limit == 1 else "summary.round_limit", lang, n=limit))
        if isinstance(crown, int):
            parts.append(t("summary.coronation", lang, n=crown))
        if isinstance(ranks, list) and ranks:
            expansion = _expansion_summary(settings.seats, str(settings.options.get("ruleset", "house")), ranks, lang)
    if settings.turn_timer:
        parts.append(t("summary.turn_timer", lang, s=settings.turn_timer))
    else:
        parts.append(t("summary.turn_timer_off", lang))
    if settings.window_timer:
        parts.append(t("summary.window_timer", lang, s=settings.window_timer))
    else:
        parts.append(t("summary.window_timer_off", lang))
    parts.append(t("summary.bot_delay", lang, s=f"{settings.bot_delay:g}"))
    if settings.strict_windows:  # S-REACT-5, K-ORD-11
        parts.append(t("summary.strict_windows", lang))
    else:
        parts.append(t("summary.quick_windows", lang, s=f"{settings.window_min:g}"))
    if settings.bot_level != DEFAULT_BOT_LEVEL or settings.bot_levels:  # (normal bots go unsaid)
        parts.append(bot_levels_summary(settings, lang))
    if settings.game == "sultans":  # turn limit (S-WIN-4) and notebook (S-VIEW-2)
        parts.append(t("summary.between_rounds", lang, s=settings.between_rounds))
        limit = settings.options.get("turn_limit")
        parts.append(t("summary.turn_limit", lang, n=limit if isinstance(limit, int) else 200))
        notebook = settings.options.get("notebook", True) is not False
        parts.append(t("summary.notebook_on" if notebook else "summary.notebook_off", lang))
    return " · ".join(parts + expansion)  # a private room says so in the room's title line (and shows its host the code)

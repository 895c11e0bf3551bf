# Writes the rule cases of the hidden chits of The First World War (DESIGN §2.6; TFWW 6.1/1,
# 6.1/5, 6.2, 6.2.1, 4.2/3). Kept next to the cases; the YAML files are what the runner reads.
# Entries carry `commit`/`open` as the engine hands them to the ruleset; `knowledge: public`
# replays as a reader without keys, `omniscient` (the default) as verify's second pass.
import yaml, os
D = os.path.dirname(os.path.abspath(__file__))
def E(seat, actions=None, commit=None, open_=None):
    e = {"seat": seat}
    if actions is not None: e["orders"] = {"actions": actions}
    if commit: e["commit"] = [{"id": i, "value": v} for i, v in commit]
    if open_: e["open"] = [{"id": i, "value": v} for i, v in open_]
    return e
def case(name, rule, about, state, entries, expect, dice=None, knowledge=None, reading=None):
    c = {"rule": "TFWW " + rule, "about": about, "ruleset": "first-world-war"}
    if reading: c["reading"] = reading
    if knowledge: c["knowledge"] = knowledge
    st = {"hidden_chits": True}; st.update(state); c["state"] = st
    c["entries"] = entries
    if dice: c["dice"] = dice
    c["expect"] = expect
    with open(os.path.join(D, name + ".yaml"), "w") as f:
        yaml.safe_dump(c, f, sort_keys=False, allow_unicode=True, width=1000)
ATT = E("western_allies", [{"attack": {"front": 1, "armies": ["BE-1"]}}])
FRONT1 = {"turn": 2, "round": 2, "armies": {"BE-1": 1, "DE-1": 1}}
FD = "face-down"

case("06.01.1-hidden-face-down", "6.1/1", "the defender places its chit face down: only a commitment travels, the hand size shows",
     dict(FRONT1, hands={"germany": ["trench-lines", "cp-bluff-1"]}),
     [ATT, E("germany", [{"chit": FD}], commit=[("chit@0", "chit:trench-lines")])],
     {"events": ["GER places a chit face down"], "state": ["hand germany: 1 chits, face down"], "absent": ["trench-lines", "cp-bluff-1"]},
     knowledge="public")
case("06.01.1-hidden-plain-name", "6.1/1", "in a hidden game a chit never travels by name",
     dict(FRONT1, hands={"germany": ["trench-lines"]}),
     [ATT, E("germany", [{"chit": "trench-lines"}])],
     {"violations": [{"rule": "TFWW 6.1/1"}]})
case("06.01.5-hidden-never-held", "6.2", "a chit committed that the seat does not hold (per its draws and plays) is refused once its value is known",
     dict(FRONT1, hands={"germany": ["trench-lines"]}),
     [ATT, E("germany", [{"chit": FD}], commit=[("chit@0", "chit:alpenkorps")])],
     {"violations": [{"rule": "TFWW 6.2"}]})
case("06.01.5-hidden-opened-out-of-play", "6.2", "opened at 6.1/5, a chit that is not in play cannot have been held: refused even without keys",
     dict(FRONT1, hands={"germany": ["trench-lines"]}),
     [ATT, E("germany", [{"chit": FD}], commit=[("chit@0", "chit:trench-lines")]),
      E("western_allies", [{"chit": None}, {"lead": {"army": "BE-1"}}]),
      E("germany", [{"lead": {"army": "DE-1"}}], open_=[("chit@0", "chit:stosstruppen")])],
     {"violations": [{"rule": "TFWW 6.2"}]}, knowledge="public")
case("06.01.5-hidden-defender-opens-with-lead", "6.1/5", "the defender turns its chit face up in the entry that names its lead; it counts in the roll",
     dict(FRONT1, hands={"germany": ["trench-lines"]}),
     [ATT, E("germany", [{"chit": FD}], commit=[("chit@0", "chit:trench-lines")]),
      E("western_allies", [{"chit": None}, {"lead": {"army": "BE-1"}}]),
      E("germany", [{"lead": {"army": "DE-1"}}], open_=[("chit@0", "chit:trench-lines")])],
     {"events": ["germany turns its chit face up: trench-lines", "GER trench-lines (+1)"]}, dice=[3, 3], knowledge="public")
case("06.01.5-hidden-defender-must-open", "6.1/5", "the defender's lead without the opening of its placed chit is refused",
     dict(FRONT1, hands={"germany": ["trench-lines"]}),
     [ATT, E("germany", [{"chit": FD}], commit=[("chit@0", "chit:trench-lines")]),
      E("western_allies", [{"chit": None}, {"lead": {"army": "BE-1"}}]),
      E("germany", [{"lead": {"army": "DE-1"}}])],
     {"violations": [{"rule": "TFWW 6.1/5"}]}, knowledge="public")
case("06.01.5-hidden-attacker-opens-then-roll", "6.1/5", "the attacker's face-down chit is turned up in an entry of its own, which carries the roll",
     dict(FRONT1, hands={"western_allies": ["allied-bluff-1"]}),
     [ATT, E("western_allies", [{"chit": FD}, {"lead": {"army": "BE-1"}}], commit=[("chit@0", "chit:allied-bluff-1")]),
      E("germany", [{"lead": {"army": "DE-1"}}]),
      E("western_allies", ["open_chit"], open_=[("chit@0", "chit:allied-bluff-1")])],
     {"events": ["GER holds no chit: none placed", "western_allies turns its chit face up: allied-bluff-1"], "pending": "combat on front 1"},
     knowledge="public")
case("06.01.5-hidden-open-breaks-rule", "F.8", "a chit opened that its side may not use (a defence chit in attack) counts as 0 and the violation is recorded (F.8)",
     dict(FRONT1, hands={"western_allies": ["british-rifles"]}),
     [ATT, E("western_allies", [{"chit": FD}, {"lead": {"army": "BE-1"}}], commit=[("chit@0", "chit:british-rifles")]),
      E("germany", [{"lead": {"army": "DE-1"}}]),
      E("western_allies", ["open_chit"], open_=[("chit@0", "chit:british-rifles")])],
     {"events": ["violation by western_allies: WA placed british-rifles, which cannot be used attacking (TFWW 6.2); the chit counts as 0",
                 "western_allies turns its chit face up: british-rifles"], "pending": "combat on front 1"}, knowledge="public")
case("06.01.5-hidden-open-breaks-rule-roll", "F.8", "a void chit adds nothing to the attack total (F.8: it counts as 0)",
     dict(FRONT1, hands={"western_allies": ["british-rifles"]}),
     [ATT, E("western_allies", [{"chit": FD}, {"lead": {"army": "BE-1"}}], commit=[("chit@0", "chit:british-rifles")]),
      E("germany", [{"lead": {"army": "DE-1"}}]),
      E("western_allies", ["open_chit"], open_=[("chit@0", "chit:british-rifles")])],
     {"events": ["the chit counts as 0", "chits revealed: WA british-rifles", "2 die +0 chit"]}, knowledge="public", dice=[2, 1])
case("06.01.5-hidden-open-wrong-lead", "F.8", "a chit opened whose nation does not suit the lead named counts as 0 and the violation is recorded (F.8)",
     dict(FRONT1, hands={"western_allies": ["soixante-quinze"]}),
     [ATT, E("western_allies", [{"chit": FD}, {"lead": {"army": "BE-1"}}], commit=[("chit@0", "chit:soixante-quinze")]),
      E("germany", [{"lead": {"army": "DE-1"}}]),
      E("western_allies", ["open_chit"], open_=[("chit@0", "chit:soixante-quinze")])],
     {"events": ["violation by western_allies: soixante-quinze needs a lead of FR, not BE-1 (TFWW 6.2); the chit counts as 0", "2 die +0 chit"]},
     knowledge="public", dice=[2, 1])
S_BATTLE = [E("germany", [{"attack": {"front": 1, "armies": ["DE-1"]}}]),
            E("germany", [{"chit": None}, {"lead": {"army": "DE-1"}}]),
            E("western_allies", [{"lead": {"army": "BE-1"}}]),
            E("western_allies", ["pass"]), E("eastern_allies", ["pass"]), E("german_allies", ["pass"])]
S_STATE = {"turn": 2, "round": 1, "armies": {"DE-1": 1, "BE-1": 1}}
case("06.02-hidden-private-draw", "6.2", "after an S the roller draws privately in its next orders; the draw settles with the next entry's dice",
     S_STATE, S_BATTLE + [E("germany", ["pass"]), E("western_allies", ["pass"])],
     {"events": ["GER rolled S: germany draws a chit face down with its next orders",
                 "germany draws a chit from the central_powers cup, face down (draw@0)",
                 "germany draws ludendorff (draw@0, cup position 2 of 6)"],
      "state": ["hand germany: ludendorff", "cup central_powers: 5 chits"]},
     dice=[0, 1, 101])
case("06.02-hidden-private-draw-public", "6.2", "without the drawer's key a private draw settles unknown: only the hand size and the cup size change",
     S_STATE, S_BATTLE + [E("germany", ["pass"]), E("western_allies", ["pass"])],
     {"events": ["germany's draw draw@0 is settled: only germany's side can tell the chit"],
      "state": ["hand germany: 1 chits, face down", "cup central_powers: 5 chits"]},
     dice=[0, 1], knowledge="public")
case("06.02.1-hidden-draw-at-limit", "6.2.1", "drawing at the hand limit, the drawing entry must return a chit held before",
     dict(S_STATE, hands={"germany": ["dicke-bertha", "conrad", "trench-lines"]}),
     S_BATTLE + [E("germany", ["pass"])],
     {"violations": [{"rule": "TFWW 6.2.1"}]}, dice=[0, 1])
case("06.02.1-hidden-draw-at-limit-return", "6.2.1", "the return rides face down in the drawing entry; the draw cannot give that chit back",
     dict(S_STATE, hands={"germany": ["dicke-bertha", "conrad", "trench-lines"]}),
     S_BATTLE + [E("germany", [{"discard": FD}, "pass"], commit=[("chit@1", "chit:conrad")]), E("western_allies", ["pass"])],
     {"events": ["germany returns a chit held before its draw (hand limit) to the central_powers cup, face down",
                 "germany draws kaisertreu (draw@0, cup position 1 of 3)"],
      "state": ["hand germany: dicke-bertha, trench-lines, kaisertreu"]},
     dice=[0, 1, 100], reading="AMB-26: the chit returned for the limit is left out of the draw it makes room for")
case("06.02.1-hidden-unusable-return", "6.2.1", "a chit returned as unusable is committed; once known it must really be unusable by the seat",
     {"turn": 2, "round": 3, "hands": {"eastern_allies": ["steamroller"]}},
     [E("eastern_allies", [{"return_chit": FD}, "pass"], commit=[("chit@0", "chit:steamroller")])],
     {"violations": [{"rule": "TFWW 6.2.1"}]})
case("06.02.1-hidden-unusable-return-ok", "6.2.1", "an unusable chit goes back face down: the hand shrinks, the cup grows, nobody learns which",
     {"turn": 2, "round": 3, "hands": {"eastern_allies": ["british-rifles", "steamroller"]}},
     [E("eastern_allies", [{"return_chit": FD}, "pass"], commit=[("chit@0", "chit:british-rifles")])],
     {"events": ["eastern_allies returns an unusable chit (no new draw) to the allies cup, face down"],
      "state": ["hand eastern_allies: 1 chits, face down", "sealed chit commitments of eastern_allies: chit@0"], "absent": ["british-rifles"]},
     knowledge="public")
END = {"turn": 6, "round": 13, "armies": {"DE-1": 1, "BE-1": 1}, "hands": {"germany": ["conrad"]}}
END_E = [E("germany", [{"return_chit": FD}, "pass"], commit=[("chit@0", "chit:conrad")]),
         E("western_allies", ["pass"]), E("eastern_allies", ["pass"]), E("german_allies", ["pass"])]
case("04.02.3-hidden-final-reveal", "4.2/3", "when the game ends every seat opens its chit draws and returns before the result stands",
     END, END_E + [E("western_allies", ["reveal_chits"]), E("eastern_allies", ["reveal_chits"]), E("german_allies", ["reveal_chits"]),
                   E("germany", ["reveal_chits"], open_=[("chit@0", "chit:conrad")])],
     {"events": ["germany shows that chit@0 returned conrad", "every chit commitment is open: the result stands"]}, knowledge="public")
case("04.02.3-hidden-final-reveal-missing", "4.2/3", "a reveal that leaves a chit commitment closed is refused",
     END, END_E + [E("germany", ["reveal_chits"])],
     {"violations": [{"rule": "TFWW 4.2/3"}]}, knowledge="public")
case("06.02.2-hidden-mandatory", "6.2.2", "a face-down chit other than a mandatory one that fits is refused once the hand is known (the seat's own tool, verify's omniscient pass)",
     {"turn": 2, "round": 3, "armies": {"SB-1": 10, "AH-1": 10}, "hands": {"german_allies": ["kaisertreu", "trench-lines"]}},
     [E("eastern_allies", [{"attack": {"front": 10, "armies": ["SB-1"]}}]),
      E("german_allies", [{"chit": FD}], commit=[("chit@0", "chit:trench-lines")])],
     {"violations": [{"rule": "TFWW 6.2.2"}]})

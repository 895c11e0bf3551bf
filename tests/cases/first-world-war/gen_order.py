# Writes the rule cases of optional rule 9.2 (variable deployment and round order) of The
# First World War, one YAML file per case; run from anywhere. The YAML files are what the
# runner (tests/rule_cases.rs) reads.
import yaml, os
D = os.path.dirname(os.path.abspath(__file__))
GER, WA, EA, GA = "germany", "western_allies", "eastern_allies", "german_allies"
P = "pass"
cases = []
def case(name, about, state, expect, entries, dice, reading=None):
    c = {"rule": "TFWW 9.2", "about": about, "ruleset": "first-world-war"}
    if reading: c["reading"] = reading
    c["state"] = state
    c["entries"] = [{"seat": s, "orders": {"actions": o}} for s, o in entries]
    c["dice"] = dice
    c["expect"] = expect
    cases.append((name, c))
def pick(d, r): return {"pick_order": {"deploy": d, "round": r}}
# The last round of turn 2: GA's pass ends the turn; turn 3 opens with the order rolls, whose
# dice are that entry's (RND-5).
END2 = {"turn": 2, "round": 16, "options": {"variable_order": True}}
TIE = "AMB-17: ties are re-rolled by the tied factions only, to order themselves"

case("09.02-order-roll", "from turn 2 each faction rolls one die (S = 0) in the order GA, EA, WA, GER; the highest picks first",
     END2, {"events": ["order roll of GA: rolled 3", "order roll of EA: rolled 1", "order roll of WA: rolled 5", "order roll of GER: rolled S",
                       "picking order: WA, GA, EA, GER"],
            "state": ["play order: picking slots", "play order (TFWW 9.2): being chosen, picking in the order WA, GA, EA, GER: deployment slots -, -, -, -; round slots -, -, -, -", "awaiting western_allies: WA: pick a free deployment slot and a free round slot (TFWW 9.2)"]},
     [(GA, [P])], [3, 1, 5, 0])
case("09.02-order-tie-reroll", "a tie is re-rolled by the tied factions only, who order themselves between the others",
     END2, {"events": ["order roll of GA: rolled 4", "order roll of EA: rolled 2", "order roll of WA: rolled 4", "order roll of GER: rolled 1",
                       "GA and WA tie on 4: only they re-roll", "order re-roll of GA: rolled 3", "order re-roll of WA: rolled 5",
                       "picking order: WA, GA, EA, GER"]},
     [(GA, [P])], [4, 2, 4, 1, 3, 5], reading=TIE)
case("09.02-slot-taken", "a slot another faction took is refused",
     END2, {"violations": [{"rule": "TFWW 9.2"}], "state": ["deployment slots WA, -, -, -; round slots -, WA, -, -"]},
     [(GA, [P]), (WA, [pick(1, 2)]), (GA, [pick(1, 1)])], [3, 1, 5, 0])
case("09.02-deployment-order", "deployment follows the chosen deployment slots (the last picker takes the slots left)",
     dict(END2, dummies_off={GER: 1, WA: 1}),
     {"events": ["WA takes deployment slot 4 and round slot 2", "GA takes deployment slot 1 and round slot 4", "EA takes deployment slot 2 and round slot 1",
                 "GER takes the slots left: deployment slot 3 and round slot 3", "turn 3 order: deployment GA, EA, GER, WA; rounds EA, WA, GER, GA",
                 "GER deploys on front 1: dummy"],
      "state": ["awaiting western_allies: deploy WA", "play order (TFWW 9.2): deployment GA, EA, GER, WA; rounds EA, WA, GER, GA"]},
     [(GA, [P]), (WA, [pick(4, 2)]), (GA, [pick(1, 4)]), (EA, [pick(2, 1)]), (GER, [{"deploy": [{"piece": "dummy", "front": 1}]}])], [3, 1, 5, 0])
case("09.02-round-order", "the chosen round order is used, and repeats for each cycle of the turn",
     END2, {"state": ["awaiting eastern_allies: one action for EA in round 5"],
            "events": ["EA passes", "WA passes", "GER passes", "GA passes"]},
     [(GA, [P]), (WA, [pick(4, 2)]), (GA, [pick(1, 4)]), (EA, [pick(2, 1)]), (EA, [P]), (WA, [P]), (GER, [P]), (GA, [P])], [3, 1, 5, 0],
     reading="the round order chosen repeats for all 4 cycles of the turn (digest D.11, inferred)")
case("09.02-example", "the rulebook's example: EA rolls highest and chooses to deploy last and to take its rounds second",
     END2, {"events": ["picking order: EA, WA, GA, GER", "EA takes deployment slot 4 and round slot 2"],
            "state": ["awaiting western_allies: WA: pick a free deployment slot"]},
     [(GA, [P]), (EA, [pick(4, 2)])], [1, 5, 3, 0])

for name, c in cases:
    with open(os.path.join(D, name + ".yaml"), "w") as f:
        yaml.safe_dump(c, f, sort_keys=False, default_flow_style=None, width=200, allow_unicode=True)
print(len(cases), "cases")

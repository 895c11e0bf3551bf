# Writes the rule cases of The First World War (one YAML file per case). Kept next to the
# cases so they can be regenerated; the YAML files are what the runner reads.
import yaml, os
D = os.path.dirname(os.path.abspath(__file__))
cases = []
def case(name, rule, about, state, expect, entries=None, seat=None, orders=None, dice=None, reading=None):
    c = {"rule": "TFWW " + rule, "about": about, "ruleset": "first-world-war"}
    if reading: c["reading"] = reading
    c["state"] = state
    if seat: c["seat"] = seat
    if orders is not None: c["orders"] = {"actions": orders}
    if entries: c["entries"] = [{"seat": s, "orders": {"actions": o}} if o is not None else {"seat": s} for s, o in entries]
    if dice: c["dice"] = dice
    c["expect"] = expect
    cases.append((name, c))
def A(front, armies, capture=None):
    d = {"front": front, "armies": armies}
    if capture: d["capture"] = capture
    return {"attack": d}
def C(ch): return {"chit": ch}
def L(a, draw=True):
    d = {"army": a}
    if not draw: d["draw"] = False
    return {"lead": d}
def battle(att_seat, def_seat, front, att, al, dl, dchit=None, achit=None, adraw=True, ddraw=True, capture=None, skip_def_chit=False):
    e = [(att_seat, [A(front, att, capture)])]
    if not skip_def_chit: e.append((def_seat, [C(dchit)]))
    e.append((att_seat, [C(achit), L(al, adraw)]))
    e.append((def_seat, [L(dl, ddraw)]))
    return e
P = "pass"
GER, WA, EA, GA = "germany", "western_allies", "eastern_allies", "german_allies"

# --- seats, order, actions
case("01.00-two-player-seat", "1.0", "with 2 players the Allied seat plays both Allied factions in their own rounds",
     {"players": 2, "turn": 2, "round": 2, "armies": {"FR-1": 4}}, {"events": ["WA passes"], "state": ["awaiting allies: one action for EA in round 3"]},
     seat="allies", orders=[P])
case("01.00-two-player-consecutive-steps", "1.0", "with 2 players the Allied seat's two rounds in a row (WA, then EA) go in one entry: the actions apply in order, one per round",
     {"players": 2, "turn": 2, "round": 2}, {"events": ["WA passes", "EA passes"], "state": ["awaiting central_powers: one action for GA in round 4"]},
     seat="allies", orders=[P, P])
case("01.00-four-player-seat", "1.0", "with 4 players each faction is its own seat: Germany cannot act in a WA round",
     {"turn": 2, "round": 2}, {"violations": [{"rule": "TFWW 4.2"}]}, seat=GER, orders=[P])
case("01.00-three-player-seat", "1.0", "with 3 players Germany and the German Allies are separate seats",
     {"players": 3, "turn": 2, "round": 3}, {"events": ["EA passes"], "state": ["awaiting german_allies"]}, seat="allies", orders=[P])
case("04.02-round-order", "4.2/2", "rounds run Germany, Western Allies, Eastern Allies, German Allies",
     {"turn": 2, "round": 1}, {"state": ["awaiting german_allies: one action for GA in round 4"]},
     entries=[(GER, [P]), (WA, [P]), (EA, [P])], reading="AMB-27: the garbled list is read G, WA, EA, GA")
case("04.02-one-action", "4.2/2", "a round is exactly one action: a second action in the same entry is refused",
     {"turn": 2, "round": 1}, {"violations": [{"rule": "TFWW 4.2"}]}, seat=GER, orders=[P, P])
case("04.02-pass", "4.2/2", "a faction may pass its round", {"turn": 2, "round": 1, "armies": {"DE-1": 1}},
     {"events": ["GER passes"], "state": ["round 2 (WA)"]}, seat=GER, orders=[P])
case("04.02-combat-needs-real-army", "4.2/2", "combat is declared only with real armies on the front: dummies never attack",
     {"turn": 2, "round": 1, "dummies": {GER: [1]}, "armies": {"BE-1": 1}}, {"violations": [{"rule": "TFWW 6.0"}]}, seat=GER, orders=[A(1, [])])
case("04.02-strategic-transfer", "4.2/2", "a strategic transfer takes one or two pieces from one front to any front, across theatres",
     {"turn": 2, "round": 1, "armies": {"DE-1": 1, "DE-2": 1}}, {"events": ["GER transfers DE-1, DE-2 from front 1 to front 8"], "state": ["front 8 (Poland): DE-1(3) DE-2(3)"]},
     seat=GER, orders=[{"transfer": {"from": 1, "to": 8, "pieces": ["DE-1", "DE-2"]}}], reading="AMB-07: one origin and one destination")
case("04.02-strategic-transfer-three", "4.2/2", "a strategic transfer moves at most two pieces",
     {"turn": 2, "round": 1, "armies": {"DE-1": 1, "DE-2": 1, "DE-3": 1}}, {"violations": [{"rule": "TFWW 4.2/2"}]},
     seat=GER, orders=[{"transfer": {"from": 1, "to": 8, "pieces": ["DE-1", "DE-2", "DE-3"]}}])
# --- setup
case("03.00-setup-vp", "3.0", "every faction starts on 6 VP", {"fresh": True}, {"state": ["VP: GER 6, WA 6, EA 6, GA 6"]}, seat=GA,
     orders=[{"deploy": [{"piece": p, "front": f} for p, f in [("AH-1", 9), ("AH-3", 9), ("AH-4", 9), ("AH-5", 10), ("AH-6", 10)]] + [{"piece": "dummy", "front": 9}] * 6}])
case("03.00-setup-cups", "3.0", "only the chits marked 1914 start in the cups (7 Allied, 6 Central Powers in the representative set)",
     {"fresh": True}, {"state": ["cup allies: 7 chits", "cup central_powers: 6 chits", "hand germany: empty"]}, seat=EA, orders=[P])
cases[-1][1].pop("seat"); cases[-1][1].pop("orders"); cases[-1][1]["expect"] = {"violations": [{"rule": "TFWW 4.2"}], "state": ["cup allies: 7 chits", "cup central_powers: 6 chits"]}; cases[-1][1]["seat"] = EA; cases[-1][1]["orders"] = {"actions": [P]}
case("03.00-setup-reinforcements", "3.0", "armies entering after turn 1 wait on the turn track",
     {"fresh": True}, {"state": ["army DE-9: on the turn track for turn 2", "army US-2: on the turn track for turn 6", "front 9 (Galicia): AH-1(1) AH-3(1) AH-4(2) AH-5(1) AH-6(1)"]},
     seat=GA, orders=[{"deploy": [{"piece": p, "front": 9} for p in ["AH-1", "AH-3", "AH-4", "AH-5", "AH-6"]] + [{"piece": "dummy", "front": 10}] * 6}])
case("03.00-dummies-turn1", "3.0", "all dummies are available on turn 1 and must be deployed",
     {"fresh": True}, {"violations": [{"rule": "TFWW 4.2/1"}]},
     seat=GA, orders=[{"deploy": [{"piece": p, "front": 9} for p in ["AH-1", "AH-3", "AH-4", "AH-5", "AH-6"]] + [{"piece": "dummy", "front": 10}] * 5}])
case("09.03-historical-setup", "9.3", "the historical setup places the turn-1 armies exactly as the table",
     {"fresh": True, "options": {"historical_setup": True}},
     {"state": ["front 1 (Flanders): BE-1(1) DE-1(3) DE-2(3)", "front 9 (Galicia): RU-3(2) RU-4(1) RU-5(2) RU-8(2) AH-1(1) AH-3(1) AH-4(2)", "front 10 (Balkans): SB-1(2) SB-2(1) MN(0) AH-5(1) AH-6(1) 6 dummy GA"]},
     seat=GA, orders=[{"deploy": [{"piece": "dummy", "front": 10}] * 6}], reading="AMB-18: dummies are deployed freely in the normal order")
# --- deployment
case("04.02.1-deployment-order", "4.2/1", "deployment runs German Allies, Eastern Allies, Western Allies, Germany: EA cannot deploy first",
     {"fresh": True}, {"violations": [{"rule": "TFWW 4.2"}]}, seat=EA, orders=[{"deploy": []}])
case("04.02.1-deploy-permitted-fronts", "4.2/1", "a reinforcement goes only to a front whose list names it",
     {"turn": 2, "stage": "deploy", "track": {"FR-6": 2}, "armies": {"FR-1": 1, "FR-2": 2, "FR-3": 3, "FR-4": 4}},
     {"violations": [{"rule": "TFWW 2.1", "unit": "FR-6"}]}, seat=WA, orders=[{"deploy": [{"piece": "FR-6", "front": 9}]}])
case("04.02.1-dummy-redeploy", "4.2/1", "a removed dummy comes back on a front where an army of its faction may operate",
     {"turn": 2, "stage": "deploy", "armies": {"FR-1": 1, "FR-2": 2, "FR-3": 3, "FR-4": 4}, "dummies_off": {WA: 1}},
     {"violations": [{"rule": "TFWW 4.2/1", "unit": "dummy"}]}, seat=WA, orders=[{"deploy": [{"piece": "dummy", "front": 9}]}])
case("04.02.1-dummy-redeploy-ok", "4.2/1", "a removed dummy redeploys on a permitted front",
     {"turn": 2, "stage": "deploy", "armies": {"FR-1": 1, "FR-2": 2, "FR-3": 3, "FR-4": 4}, "dummies_off": {WA: 1}},
     {"events": ["WA deploys on front 5: dummy"], "state": ["front 5 (Trentino): 1 dummy WA"]}, seat=WA, orders=[{"deploy": [{"piece": "dummy", "front": 5}]}])
case("04.02.1-minimum-garrison", "4.2/1", "from turn 2 a faction must put a real army on a garrison front it left empty",
     {"turn": 2, "stage": "deploy", "track": {"DE-9": 2}, "armies": {"DE-1": 1, "DE-2": 2, "DE-3": 3}},
     {"violations": [{"rule": "TFWW 4.2/1"}]}, seat=GER, orders=[{"deploy": [{"piece": "DE-9", "front": 8}]}])
case("04.02.1-garrison-if-possible", "4.2/1", "the garrison duty is limited by the real armies available: one army covers one of three empty fronts",
     {"turn": 2, "stage": "deploy", "track": {"DE-9": 2}, "armies": {"DE-1": 1}},
     {"events": ["GER deploys on front 3: DE-9"], "state": ["front 3 (Champagne-Verdun): DE-9(2)"]}, seat=GER, orders=[{"deploy": [{"piece": "DE-9", "front": 3}]}],
     reading="AMB-04: when armies run short the owner picks the fronts to cover")
case("04.02.1-garrison-turn1", "4.2/1", "there is no garrison duty on turn 1",
     {"fresh": True}, {"events": ["GA deploys on front 11: AH-1, AH-3, AH-4, AH-5, AH-6"]},
     seat=GA, orders=[{"deploy": [{"piece": p, "front": 11} for p in ["AH-1", "AH-3", "AH-4", "AH-5", "AH-6"]] + [{"piece": "dummy", "front": 11}] * 6}])
# --- victory check
vc = {"turn": 2, "round": 16}
case("04.02.3-reveal-all", "4.2/3", "after the 16th round every piece is turned face up for the victory check",
     dict(vc, armies={"DE-1": 1, "BE-1": 1}), {"events": ["victory check of turn 2: every piece is turned face up"]}, seat=GA, orders=[P])
case("04.02.3-unopposed-capture", "4.2/3", "a faction alone on a front captures a city at the victory check",
     dict(vc, armies={"DE-1": 1}), {"events": ["GER captures Antwerpen on front 1 from WA: VP GER 7, WA 5"], "state": ["city Antwerpen (front 1): captured by GER"]}, seat=GA, orders=[P],
     reading="AMB-06: only real armies count; AMB-22: the capture is compulsory; with one city in reach it is taken at once (with several the faction chooses: 04.02.3-capture-choice)")
case("04.02.3-capture-choice", "6.4", "at the victory check GA alone on the Balkan front chooses which city it captures: Monastir, not the first in data order",
     {"turn": 2, "round": 16, "armies": {"AH-5": 10}},
     {"events": ["GA has a choice of cities to capture on front 10", "GA captures Monastir on front 10 from EA"], "absent": ["captures Belgrad"], "state": ["city Monastir (front 10): captured by GA", "city Belgrad (front 10): EA"]},
     entries=[(GA, [P]), (GA, [{"capture": {"front": 10, "city": "Monastir"}}])],
     reading="6.4: sometimes a player has a choice of city (Fronts 10 and 11); at the victory check the faction names it in an entry of its own")
case("04.02.3-capture-choice-out-of-reach", "6.4", "the city chosen at the victory check must be one in reach: Nis is not (GA holds no node next to it)",
     {"turn": 2, "round": 16, "armies": {"AH-5": 10}},
     {"violations": [{"rule": "TFWW 6.4"}]},
     entries=[(GA, [P]), (GA, [{"capture": {"front": 10, "city": "Nis"}}])])
case("04.02.3-unopposed-sp", "4.2/3", "an unopposed faction with no city left to take gives the absent faction a surrender point",
     dict(vc, armies={"DE-1": 2}, captured=["Amiens", "Lille"]), {"events": ["GER inflicts a surrender point on WA (front 2): SP 1"]}, seat=GA, orders=[P], dice=[1])
case("04.02.3-sp-recipient", "4.2/3", "the victory-check surrender point goes to the enemy faction whose base is on the front",
     dict(vc, armies={"DE-1": 7}, captured=["Riga", "Kovno"]), {"events": ["GER inflicts a surrender point on EA (front 7): SP 1", "surrender roll of EA (SP 1)"]}, seat=GA, orders=[P], dice=[3],
     reading="AMB-30: the recipient is the base owner")
case("04.01-max-turns", "4.1", "the game ends at the victory check of turn 6 and VP decide",
     {"turn": 6, "round": 16, "vp": {WA: 8, EA: 6, GER: 5, GA: 6}}, {"events": ["game over"], "state": ["result: allies win: end of turn 6 (TFWW 4.1): VP Allies 14, Central Powers 11"]}, seat=GA, orders=[P])
case("04.02.3-end-turn6", "4.2/3", "on turn 6 the game ends before any surrender roll",
     {"turn": 6, "round": 16, "sp": {WA: 3}}, {"state": ["result: central_powers win"], "absent": ["surrender"]}, seat=GA, orders=[P])
case("04.02.3-six-fronts", "4.2/3", "an alliance holding every city on six fronts ends the game, VP decide",
     dict(vc, vp={WA: 11, GER: 1}, captured=["Aachen", "Koeln", "Koblenz", "Metz", "Strassburg", "Trier", "Trento", "Bolzano", "Gorizia", "Trieste"]),
     {"events": ["allies hold every city on six fronts"], "state": ["result: allies win"]}, seat=GA, orders=[P],
     reading="AMB-01: all cities of a front, six fronts; the game ends and VP decide")
case("04.02.3-step-order", "4.2/3", "captures, then the end test, then surrender rolls, then the Brest-Litovsk offer",
     {"turn": 4, "round": 16, "sp": {GER: 1}, "armies": {"RU-1": 7}}, {"events": ["RU-1", "surrender rolls are due", "surrender roll of GER (SP 1): rolled S", "GER rolls S against SP 1: it fights on"], "state": ["awaiting germany: Germany: offer the treaty"]},
     seat=GA, orders=[P], dice=[0])
cases[-1][1]["expect"]["events"] = ["victory check", "surrender rolls are due", "surrender roll of GER (SP 1): rolled S", "GER rolls S against SP 1: it fights on"]
case("04.02.4-replacement-timing", "4.2/4", "a replaced army goes on the next turn's space of the track",
     {"turn": 2, "stage": "replace", "eliminated": ["DE-1"], "armies": {"AH-1": 9}}, {"state": ["army DE-1: on the turn track for turn 3"]}, seat=GER, orders=[{"replace": ["DE-1"]}])
case("04.02.5-chit-entry", "4.2/5", "the chits of next turn's year enter the cups at the end of the turn",
     {"turn": 1, "stage": "replace", "eliminated": ["DE-1"]}, {"events": ["gas (1915) enters the central_powers cup", "turn 2 begins"], "state": ["cup central_powers: 11 chits"]}, seat=GER, orders=[{"replace": []}])
case("04.02.6-reset-sp", "4.2/6", "surrender points go back to 0 and the turn advances; pieces are turned face down",
     {"turn": 2, "round": 16, "sp": {WA: 1}, "armies": {"FR-1": 1, "DE-1": 1}}, {"events": ["fights on", "surrender points back to 0; turn 3 begins: every piece is turned face down"], "state": ["SP: GER 0, WA 0, EA 0, GA 0"]},
     seat=GA, orders=[P], dice=[5])
cases[-1][1]["expect"]["events"][0] = "WA rolls 5 against SP 1: it fights on"
# --- movement
mv = {"turn": 2, "round": 1}
case("05.00-move-split", "5.0", "the rulebook's example: five armies on Front 2, two go to Front 1, two to Front 3, one stays",
     dict(mv, armies={"DE-1": 2, "DE-2": 2, "DE-3": 2, "DE-4": 2, "DE-5": 2}),
     {"state": ["front 1 (Flanders): DE-1(3) DE-2(3)", "front 2 (Artois-Somme): DE-5(2)", "front 3 (Champagne-Verdun): DE-3(3) DE-4(2)"]}, seat=GER,
     orders=[{"move": {"from": 2, "pieces": [{"piece": "DE-1", "front": 1}, {"piece": "DE-2", "front": 1}, {"piece": "DE-3", "front": 3}, {"piece": "DE-4", "front": 3}]}}])
case("05.00-move-one-origin", "5.0", "a move starts from one front: a piece elsewhere cannot join it",
     dict(mv, armies={"DE-1": 2, "DE-2": 4}), {"violations": [{"rule": "TFWW 5.0", "unit": "DE-2"}]}, seat=GER,
     orders=[{"move": {"from": 2, "pieces": [{"piece": "DE-1", "front": 1}, {"piece": "DE-2", "front": 3}]}}])
case("05.00-move-adjacent-same-theatre", "5.0", "a move goes only to an adjacent front of the same theatre",
     dict(mv, armies={"DE-1": 4}), {"violations": [{"rule": "TFWW 5.0", "unit": "DE-1"}]}, seat=GER, orders=[{"move": {"from": 4, "pieces": [{"piece": "DE-1", "front": 5}]}}])
case("05.00-no-stacking-limit", "5.0", "any number of pieces may share a front",
     dict(mv, armies={"DE-1": 2, "DE-2": 2, "DE-3": 2, "DE-4": 2, "DE-5": 2, "DE-6": 2, "DE-7": 1, "DE-8": 1}, dummies={GER: [2, 2, 2]}),
     {"state": ["front 1 (Flanders): DE-1(3) DE-2(3) DE-3(3) DE-4(2) DE-5(2) DE-6(2) DE-7(2) DE-8(3) 3 dummy GER"]}, seat=GER,
     orders=[{"move": {"from": 2, "pieces": [{"piece": p, "front": 1} for p in ["DE-1", "DE-2", "DE-3", "DE-4", "DE-5", "DE-6", "dummy", "dummy", "dummy"]]}}])
case("05.00-dummy-movement", "5.0", "a dummy goes only where an army of its faction may operate: no German army in Italy before turn 4",
     dict(mv, dummies={GER: [1]}), {"violations": [{"rule": "TFWW 5.0", "unit": "dummy"}]}, seat=GER, orders=[{"transfer": {"from": 1, "to": 5, "pieces": ["dummy"]}}])
case("05.01-ga-control", "5.1", "a German army on Front 9 at the start of a round acts in GA rounds: Germany cannot move it",
     dict(mv, armies={"DE-4": 9}), {"violations": [{"rule": "TFWW 5.1", "unit": "DE-4"}]}, seat=GER, orders=[{"transfer": {"from": 9, "to": 3, "pieces": ["DE-4"]}}])
case("05.01-ga-moves-german", "5.1", "the German Allies move a German army under their control",
     {"turn": 2, "round": 4, "armies": {"DE-4": 9}}, {"events": ["GA transfers DE-4 from front 9 to front 3"], "state": ["front 3 (Champagne-Verdun): DE-4(2)"]}, seat=GA,
     orders=[{"transfer": {"from": 9, "to": 3, "pieces": ["DE-4"]}}])
case("05.01-control-revert", "5.1", "a German army taken off the GA fronts by GA is Germany's again next round",
     {"turn": 2, "round": 4, "armies": {"DE-4": 9}}, {"events": ["GA transfers DE-4", "GER moves from front 3: DE-4 → 2"]},
     entries=[(GA, [{"transfer": {"from": 9, "to": 3, "pieces": ["DE-4"]}}]), (GER, [{"move": {"from": 3, "pieces": [{"piece": "DE-4", "front": 2}]}}])])
case("05.02-reclaim-by-ga-action", "5.2", "the rulebook's example: Germany asks for DE 4 on Front 9; only a GA order can move it, so it stays",
     {"turn": 2, "round": 1, "armies": {"DE-4": 9}}, {"violations": [{"rule": "TFWW 5.1"}]}, seat=GER, orders=[{"move": {"from": 9, "pieces": [{"piece": "DE-4", "front": 8}]}}])
case("05.03-italy-turn4", "5.3", "British, French and German armies may not enter Fronts 5-6 before turn 4",
     {"turn": 3, "round": 2, "armies": {"BR-2": 1}}, {"violations": [{"rule": "TFWW 5.3", "unit": "BR-2"}]}, seat=WA, orders=[{"transfer": {"from": 1, "to": 6, "pieces": ["BR-2"]}}],
     reading="AMB-28: any way of entering, strategic transfer included")
case("05.03-italy-turn4-open", "5.3", "from turn 4 a British army may enter Front 6",
     {"turn": 4, "round": 2, "armies": {"BR-2": 1}}, {"state": ["front 6 (Isonzo): BR-2(2)"]}, seat=WA, orders=[{"transfer": {"from": 1, "to": 6, "pieces": ["BR-2"]}}])
case("05.04-monastir-gate", "5.4", "MEF and OR enter Front 11 only while EA holds Monastir",
     {"turn": 4, "round": 3, "armies": {"BR-MEF": 10}, "captured": ["Monastir"]}, {"violations": [{"rule": "TFWW 5.4", "unit": "BR-MEF"}]}, seat=EA,
     orders=[{"move": {"from": 10, "pieces": [{"piece": "BR-MEF", "front": 11}]}}])
case("05.04-monastir-stay", "5.4", "MEF on Front 11 when Monastir falls stays but may not attack there",
     {"turn": 4, "round": 3, "armies": {"BR-MEF": 11, "AH-1": 11}, "captured": ["Monastir"]}, {"violations": [{"rule": "TFWW 5.4", "unit": "BR-MEF"}]}, seat=EA,
     orders=[A(11, ["BR-MEF"])], reading="AMB-11: they stay, inactive, until Monastir is EA's again")
# --- combat
cb = {"turn": 2, "round": 1}
case("06.00-attacker-selects-participants", "6.0", "the attacker picks which of its real armies take part",
     dict(cb, armies={"DE-1": 1, "DE-2": 1, "BE-1": 1}), {"events": ["GER attacks on front 1 with DE-2"], "state": ["combat on front 1: GER (DE-2) against WA (BE-1)"]}, seat=GER, orders=[A(1, ["DE-2"])])
case("06.00-defender-reveals-all", "6.0", "every defending army takes part, of both enemy factions",
     dict(cb, armies={"DE-1": 9, "RU-3": 9, "RU-4": 9}, round=4), {"events": ["defending: RU-3, RU-4"]}, seat=GA, orders=[A(9, ["DE-1"])])
case("06.00-dummies-removed", "6.0", "defending dummies are revealed and removed; they come back at the next deployment",
     dict(cb, armies={"DE-1": 1, "BE-1": 1}, dummies={WA: [1, 2]}), {"events": ["a WA dummy is revealed on front 1 and removed"], "state": ["front 2 (Artois-Somme): 1 dummy WA", "dummies off the map: WA 1"]}, seat=GER, orders=[A(1, ["DE-1"])])
case("06.00-no-real-defender", "6.0", "an attack on a front with only dummies captures a city at once",
     dict(cb, armies={"DE-1": 1}, dummies={WA: [1]}), {"events": ["no real defender on front 1: no battle", "GER captures Antwerpen"], "state": ["round 2 (WA)"]}, seat=GER, orders=[A(1, ["DE-1"])],
     reading="AMB-08: treated as a won combat (a surrender point if no city is left)")
case("06.00-refacedown", "6.0", "after the combat every army on the front is turned face down again",
     dict(cb, armies={"DE-1": 1, "BE-1": 1}), {"events": ["every army on front 1 is turned face down again"]}, entries=battle(GER, WA, 1, ["DE-1"], "DE-1", "BE-1", skip_def_chit=True), dice=[3, 3])
case("06.01.1-chit-placement-order", "6.1/1", "the defender places its chit first: the attacker may not go first",
     dict(cb, armies={"DE-1": 1, "BE-1": 1}, hands={WA: ["british-rifles"], GER: ["dicke-bertha"]}), {"violations": [{"rule": "TFWW 6.1"}]},
     entries=[(GER, [A(1, ["DE-1"])]), (GER, [C("dicke-bertha")])])
case("06.01.1-one-chit", "6.1/1", "at most one chit per faction per combat",
     dict(cb, armies={"DE-1": 1, "BE-1": 1}, hands={GER: ["dicke-bertha", "cp-bluff-1"]}), {"violations": [{"rule": "TFWW 6.1/1"}]},
     entries=[(GER, [A(1, ["DE-1"])]), (GER, [C("dicke-bertha"), C("cp-bluff-1")])])
case("06.01.2-lead-order", "6.1/2", "the attacker names its lead before the defender",
     dict(cb, armies={"DE-1": 1, "BE-1": 1}, hands={WA: ["allied-bluff-1"]}), {"violations": [{"rule": "TFWW 6.1/2"}]},
     entries=[(GER, [A(1, ["DE-1"])]), (WA, [L("BE-1")])])
case("06.01.2-lead-value", "6.1/2", "the lead's printed value is used: Montenegro's 0",
     dict(cb, round=4, armies={"MN": 10, "AH-5": 10}), {"events": ["attacker 2 = 1 + 0 numbers + 1 die +0 chit; defender 3 = 0 + 0 numbers + 3 die +0 chit", "defender wins: AH-5 is eliminated"]},
     entries=battle(GA, EA, 10, ["AH-5"], "AH-5", "MN", skip_def_chit=True), dice=[1, 3])
case("06.01.3-numbers-bonus-equal", "6.1/3", "equal numbers give no bonus",
     dict(cb, armies={"DE-1": 1, "DE-2": 1, "BE-1": 1, "BR-1": 1}), {"events": ["attacker 4 = 3 + 0 numbers + 1 die +0 chit; defender 4 = 1 + 0 numbers + 3 die +0 chit", "tie: DE-1 and BE-1 are eliminated"]},
     entries=battle(GER, WA, 1, ["DE-1", "DE-2"], "DE-1", "BE-1", skip_def_chit=True), dice=[1, 3])
case("06.01.3-numbers-bonus-defender", "6.1/3", "the defender with more armies gets +1",
     dict(cb, armies={"DE-1": 1, "BE-1": 1, "BR-1": 1}), {"events": ["defender 6 = 3 + 1 numbers + 2 die +0 chit"]},
     entries=battle(GER, WA, 1, ["DE-1"], "DE-1", "BR-1", skip_def_chit=True), dice=[2, 2])
case("06.01.4-die-S-zero", "6.1/4", "an S counts 0 in combat (the roller may then draw a chit)",
     dict(cb, armies={"DE-1": 1, "BE-1": 1}), {"events": ["GER die: rolled S", "attacker 3 = 3 + 0 numbers + S die +0 chit"]},
     entries=battle(GER, WA, 1, ["DE-1"], "DE-1", "BE-1", skip_def_chit=True, adraw=False), dice=[0, 1])
case("06.01.5-chit-modifiers", "6.1/5", "a negative chit subtracts from its own side's total: Pantalons Rouges",
     dict(cb, round=2, armies={"FR-5": 3, "DE-5": 3}, hands={WA: ["pantalons-rouges"]}), {"events": ["WA pantalons-rouges (-1)", "attacker 5 = 3 + 0 numbers + 3 die -1 chit; defender 5 = 2 + 0 numbers + 3 die +0 chit", "tie"]},
     entries=battle(WA, GER, 3, ["FR-5"], "FR-5", "DE-5", achit="pantalons-rouges", skip_def_chit=True), dice=[3, 3])
case("06.01.5-attacker-wins", "6.1/5", "the attacker wins: the defending lead is eliminated and a city is captured",
     dict(cb, armies={"DE-1": 1, "BE-1": 1}), {"events": ["attacker wins: BE-1 is eliminated", "GER captures Antwerpen on front 1 from WA: VP GER 7, WA 5"]},
     entries=battle(GER, WA, 1, ["DE-1"], "DE-1", "BE-1", skip_def_chit=True), dice=[3, 1])
case("06.01.5-defender-wins", "6.1/5", "the defender wins: only the attacking lead is eliminated, nothing is captured",
     dict(cb, armies={"DE-4": 1, "DE-5": 1, "BR-1": 1}), {"events": ["defender wins: DE-4 is eliminated"], "state": ["front 1 (Flanders): BR-1(3) DE-5(2)", "city Antwerpen (front 1): WA"]},
     entries=battle(GER, WA, 1, ["DE-4", "DE-5"], "DE-4", "BR-1", skip_def_chit=True), dice=[1, 3])
case("06.01.5-tie", "6.1/5", "a tie eliminates both leads and captures nothing",
     dict(cb, armies={"DE-4": 1, "FR-1": 1}), {"events": ["tie: DE-4 and FR-1 are eliminated"], "state": ["city Antwerpen (front 1): WA", "front 1 (Flanders): empty"]},
     entries=battle(GER, WA, 1, ["DE-4"], "DE-4", "FR-1", skip_def_chit=True), dice=[3, 3])
# --- chits
case("06.02-chit-role", "6.2", "a defence chit cannot be played in attack",
     dict(cb, armies={"DE-1": 1, "BE-1": 1}, hands={GER: ["trench-lines"]}), {"violations": [{"rule": "TFWW 6.2"}]},
     entries=[(GER, [A(1, ["DE-1"])]), (GER, [C("trench-lines"), L("DE-1")])])
case("06.02-chit-either", "6.2", "a 0 chit may be played in attack or defence",
     dict(cb, armies={"DE-1": 1, "BE-1": 1}, hands={GER: ["cp-bluff-1"]}), {"events": ["GER places a chit face down", "GER cp-bluff-1 (+0)"]},
     entries=battle(GER, WA, 1, ["DE-1"], "DE-1", "BE-1", achit="cp-bluff-1", skip_def_chit=True), dice=[3, 1])
case("06.02-chit-nationality", "6.2", "a chit needs a lead of its nation: British Rifles with a French lead is refused",
     dict(cb, armies={"DE-1": 3, "FR-2": 3, "BR-1": 3}, hands={WA: ["british-rifles"]}), {"violations": [{"rule": "TFWW 6.2", "unit": "FR-2"}]},
     entries=[(GER, [A(3, ["DE-1"])]), (WA, [C("british-rifles")]), (GER, [C(None), L("DE-1")]), (WA, [L("FR-2")])])
case("06.02-chit-return", "6.2", "a used chit goes back to its alliance's cup",
     dict(cb, armies={"DE-1": 1, "BR-1": 1}, hands={WA: ["british-rifles"]}), {"events": ["WA british-rifles (+1)"], "state": ["cup allies: 7 chits", "hand western_allies: empty"]},
     entries=battle(GER, WA, 1, ["DE-1"], "DE-1", "BR-1", dchit="british-rifles"), dice=[3, 3])
case("06.02-S-draw-optional", "6.2", "an S allows a draw but the roller may decline",
     dict(cb, armies={"DE-1": 1, "BE-1": 1}), {"events": ["GER rolled S and declines to draw"], "state": ["hand germany: empty"]},
     entries=battle(GER, WA, 1, ["DE-1"], "DE-1", "BE-1", skip_def_chit=True, adraw=False), dice=[0, 1])
case("06.02-S-draw", "6.2", "an S lets the roller draw a chit from its own alliance's cup",
     dict(cb, armies={"DE-1": 1, "BE-1": 1}), {"events": ["GER draws a chit for germany (cup position 2 of 6): ludendorff"], "state": ["hand germany: ludendorff", "cup central_powers: 5 chits"]},
     entries=battle(GER, WA, 1, ["DE-1"], "DE-1", "BE-1", skip_def_chit=True), dice=[0, 1, 101])
case("06.02-sdraw-cup-at-roll", "6.2", "an S draw uses the cup as it stood at the roll: the chits on the table cannot be drawn",
     dict(cb, armies={"DE-1": 1, "BR-1": 1}, hands={WA: ["british-rifles"]}, cups={"allies": ["allied-bluff-1"], "central_powers": []}),
     {"events": ["WA draws a chit for western_allies (cup position 1 of 1): allied-bluff-1"], "state": ["hand western_allies: allied-bluff-1", "cup allies: 1 chits"]},
     entries=battle(GER, WA, 1, ["DE-1"], "DE-1", "BR-1", dchit="british-rifles"), dice=[1, 0, 100], reading="AMB-26: the draw happens at the roll, before the placed chits return")
case("06.02.1-hand-limit", "6.2.1", "a fourth chit forces the return of a chit held before; the new one may not go back",
     dict(cb, armies={"DE-1": 1, "BE-1": 1}, hands={GER: ["dicke-bertha", "conrad", "trench-lines"]}, cups={"central_powers": ["cp-bluff-1"], "allies": []}),
     {"violations": [{"rule": "TFWW 6.2.1"}]},
     entries=battle(GER, WA, 1, ["DE-1"], "DE-1", "BE-1", skip_def_chit=True) + [(GER, [{"discard": "cp-bluff-1"}])], dice=[0, 1, 100])
case("06.02.1-hand-limit-old", "6.2.1", "returning a chit held before the draw brings the hand back to three",
     dict(cb, armies={"DE-1": 1, "BE-1": 1}, hands={GER: ["dicke-bertha", "conrad", "trench-lines"]}, cups={"central_powers": ["cp-bluff-1"], "allies": []}),
     {"events": ["germany holds more than 3 chits", "germany returns conrad to the cup"], "state": ["hand germany: dicke-bertha, trench-lines, cp-bluff-1", "round 2 (WA)"]},
     entries=battle(GER, WA, 1, ["DE-1"], "DE-1", "BE-1", skip_def_chit=True) + [(GER, [{"discard": "conrad"}])], dice=[0, 1, 100],
     reading="AMB-12: the limit is per player")
case("06.02.1-unusable-return", "6.2.1", "the EA player may return British Rifles, which it can never use; no new chit is drawn",
     dict(cb, round=3, hands={EA: ["british-rifles"]}), {"events": ["eastern_allies returns the unusable british-rifles to the cup (no new draw)"], "state": ["hand eastern_allies: empty"]},
     seat=EA, orders=[{"return_chit": "british-rifles"}, P], reading="R-1: the named EA extras (MEF, OR, ITB) use no chit, so EA can never use a British chit")
case("06.02.1-usable-kept", "6.2.1", "a chit the player can use may not be returned at will",
     dict(cb, round=2, hands={WA: ["british-rifles"]}), {"violations": [{"rule": "TFWW 6.2.1"}]}, seat=WA, orders=[{"return_chit": "british-rifles"}, P])
case("06.02.2-mandatory-play", "6.2.2", "a mandatory chit must be played in the first combat that allows it",
     dict(cb, armies={"DE-1": 9, "AH-1": 9, "RU-3": 9}, round=3, hands={GA: ["kaisertreu"]}), {"violations": [{"rule": "TFWW 6.2.2"}]},
     entries=[(EA, [A(9, ["RU-3"])]), (GA, [C(None)])], reading="AMB-13: compulsory when a participating army of its nation could lead")
case("06.02.2-mandatory-removal", "6.2.2", "a mandatory chit is removed from the game after play",
     dict(cb, armies={"DE-1": 1, "BE-1": 1}, hands={GER: ["ludendorff"]}), {"events": ["ludendorff is removed from the game"], "state": ["removed from the game: ludendorff", "cup central_powers: 5 chits"]},
     entries=battle(GER, WA, 1, ["DE-1"], "DE-1", "BE-1", achit="ludendorff", skip_def_chit=True), dice=[1, 1])
# --- capture, bases, SP
case("06.04-capture-connectivity", "6.4", "a capture follows an attack line from a city or base the winner holds: Calais is out of reach",
     dict(cb, armies={"DE-1": 1, "BE-1": 1}), {"events": ["GER captures Antwerpen"], "state": ["city Calais (front 1): WA"]},
     entries=battle(GER, WA, 1, ["DE-1"], "DE-1", "BE-1", skip_def_chit=True, capture=["Calais"]), dice=[3, 1],
     reading="AMB-23: connectivity from the capturing faction's own cities and bases")
case("06.04-capture-choice", "6.4", "on the branching Balkan front the winner chooses among the cities in reach",
     dict(cb, round=4, armies={"AH-5": 10, "SB-1": 10}), {"events": ["GA captures Monastir"]},
     entries=battle(GA, EA, 10, ["AH-5"], "AH-5", "SB-1", skip_def_chit=True, capture=["Monastir"]), dice=[5, 1])
cases[-1][1]["state"]["captured"] = ["Nis"]
cases[-1][1]["about"] = "on the branching Balkan front the winner chooses among the cities in reach (Belgrad, Monastir, Cetinje)"
case("06.04-city-before-base", "6.4", "while a city can be captured the winner takes it and inflicts no surrender point",
     dict(cb, armies={"DE-1": 1, "BE-1": 1}, captured=["Antwerpen"]), {"events": ["GER captures Calais"], "state": ["SP: GER 0, WA 0, EA 0, GA 0"]},
     entries=battle(GER, WA, 1, ["DE-1"], "DE-1", "BE-1", skip_def_chit=True), dice=[3, 1])
case("06.04-recapture", "6.4", "the original owner recaptures its city and the marker is removed",
     dict(cb, round=2, armies={"DE-1": 1, "BR-1": 1}, captured=["Antwerpen"]), {"events": ["WA recaptures Antwerpen on front 1 from GER"], "state": ["city Antwerpen (front 1): WA"]},
     entries=battle(WA, GER, 1, ["BR-1"], "BR-1", "DE-1", skip_def_chit=True), dice=[3, 1])
case("06.04-vp-transfer", "6.4", "the rulebook's example: WA captures Aachen, WA to 7, Germany to 5",
     dict(cb, round=2, armies={"BR-1": 1, "DE-4": 1}), {"events": ["WA captures Aachen on front 1 from GER: VP WA 7, GER 5"]},
     entries=battle(WA, GER, 1, ["BR-1"], "BR-1", "DE-4", skip_def_chit=True), dice=[3, 1])
case("08.00-vp-floor", "8.0", "VP never fall below 0",
     dict(cb, round=2, armies={"BR-1": 1, "DE-4": 1}, vp={GER: 0}), {"events": ["VP WA 7, GER 0"]},
     entries=battle(WA, GER, 1, ["BR-1"], "BR-1", "DE-4", skip_def_chit=True), dice=[3, 1])
case("06.05-sp-from-base", "6.5", "a win with no city to take but the enemy base in reach inflicts a surrender point",
     dict(cb, armies={"DE-1": 1, "BE-1": 1}, captured=["Antwerpen", "Calais"]), {"events": ["GER inflicts a surrender point on WA (front 1): SP 1"], "state": ["base"]},
     entries=battle(GER, WA, 1, ["DE-1"], "DE-1", "BE-1", skip_def_chit=True), dice=[3, 1])
cases[-1][1]["expect"]["state"] = ["SP: GER 0, WA 1, EA 0, GA 0"]
case("06.05-base-immutable", "6.5", "bases never change hands and give no VP: VP stay as they were",
     dict(cb, armies={"DE-1": 1, "BE-1": 1}, captured=["Antwerpen", "Calais"], vp={GER: 8, WA: 4}), {"state": ["VP: GER 8, WA 4, EA 6, GA 6"]},
     entries=battle(GER, WA, 1, ["DE-1"], "DE-1", "BE-1", skip_def_chit=True), dice=[3, 1])
case("06.05-vc-marker-capturer", "6.5", "a city can be captured only by the faction of its marker: GA wins on Front 7 but Riga is Germany's to take",
     dict(cb, round=4, armies={"AH-1": 7, "RU-1": 7}), {"events": ["GA: no city to capture and no enemy base in reach on front 7"], "state": ["city Kovno (front 7): EA"]},
     entries=battle(GA, EA, 7, ["AH-1"], "AH-1", "RU-1", skip_def_chit=True), dice=[3, 1])
case("06.05-surrender-roll", "6.5", "a roll at or under the SP surrenders; the alliance loses",
     {"turn": 2, "round": 16, "sp": {EA: 2}}, {"events": ["EA rolls 2 against SP 2: it surrenders"], "state": ["result: central_powers win: an Allied faction surrendered"]}, seat=GA, orders=[P], dice=[2])
case("06.05-surrender-S", "6.5", "an S never surrenders, whatever the SP",
     {"turn": 2, "round": 16, "sp": {EA: 5}}, {"events": ["EA rolls S against SP 5: it fights on"], "absent": ["result:"]}, seat=GA, orders=[P], dice=[0])
case("06.05-mutual-surrender", "6.5", "factions of both alliances surrender in the same check: every player loses",
     {"turn": 2, "round": 16, "sp": {WA: 5, GER: 5}}, {"state": ["result: no winner: factions of both alliances surrendered"]}, seat=GA, orders=[P], dice=[5, 5])
case("06.05.2-sp-cap-per-front", "6.5.2", "the rulebook's example: EA already got an SP for Front 7 in combat, none more at the victory check",
     {"turn": 2, "round": 16, "armies": {"DE-8": 7}, "captured": ["Riga", "Kovno"], "sp": {EA: 1}, "sp_charged": [[EA, 7]]},
     {"events": ["EA already received a surrender point for front 7 this turn", "surrender roll of EA (SP 1)"]}, seat=GA, orders=[P], dice=[3])
case("06.06-neutral-lines", "6.6", "the rulebook's example: on turn 3 Bucharest (and Odessa behind it) cannot be captured; Galatz's line is open",
     {"turn": 3, "round": 4, "armies": {"AH-1": 11, "RU-1": 11}}, {"events": ["GA captures Galatz"], "state": ["city Bucharest (front 11): EA", "city Odessa (front 11): EA"]},
     entries=battle(GA, EA, 11, ["AH-1"], "AH-1", "RU-1", skip_def_chit=True, capture=["Bucharest"]), dice=[3, 1])
case("06.06-neutral-line-locks-its-cities", "6.6", "on turn 3 Bucharest cannot be captured even by the unmarked line from Galatz, which GA already holds",
     {"turn": 3, "round": 4, "captured": ["Galatz"], "armies": {"AH-1": 11, "RU-1": 11}},
     {"events": ["GA: no city to capture and no enemy base in reach on front 11"], "absent": ["captures Bucharest"], "state": ["city Bucharest (front 11): EA", "city Odessa (front 11): EA"]},
     entries=battle(GA, EA, 11, ["AH-1"], "AH-1", "RU-1", skip_def_chit=True, capture=["Bucharest"]), dice=[3, 1],
     reading="6.6: the turn printed on a neutral line is the turn from which the cities it connects may change hands, whatever line the capture comes by; Odessa, reached only through Bucharest, is locked with it")
case("06.06-neutral-lines-open", "6.6", "from turn 4 the Bucharest line is open",
     {"turn": 4, "round": 4, "armies": {"AH-1": 11, "RU-1": 11}}, {"events": ["GA captures Bucharest"]},
     entries=battle(GA, EA, 11, ["AH-1"], "AH-1", "RU-1", skip_def_chit=True, capture=["Bucharest"]), dice=[3, 1])
# --- replacements
rp = {"turn": 2, "stage": "replace"}
case("07.00-replacement-capacity", "7.0", "capacity is one army per own replacement centre still held: Paris lost, 3 for WA",
     dict(rp, eliminated=["FR-1", "FR-2", "FR-3", "FR-4"], captured=["Paris"]), {"violations": [{"rule": "TFWW 7.0"}]}, seat=WA, orders=[{"replace": ["FR-1", "FR-2", "FR-3", "FR-4"]}])
case("07.00-replacement-no-carryover", "7.0", "unused capacity is lost",
     dict(rp, eliminated=["FR-1", "DE-1"]), {"events": ["WA replaces none (capacity 4; unused capacity is lost)"], "state": ["army FR-1: eliminated"]}, seat=WA, orders=[{"replace": []}],
     reading="AMB-09: an army not replaced stays eliminated and may be replaced later")
case("07.00-replacement-choice", "7.0", "the owner chooses which eliminated armies come back",
     dict(rp, eliminated=["DE-1", "DE-2", "DE-3", "DE-4", "DE-5"]), {"state": ["army DE-5: on the turn track for turn 3", "army DE-1: eliminated"]}, seat=GER, orders=[{"replace": ["DE-5", "DE-4", "DE-3", "DE-2"]}])
case("07.01-no-enemy-rc-benefit", "7.1", "an enemy replacement centre gives the captor nothing: Germany holding Paris still replaces 4",
     dict(rp, eliminated=["DE-1", "DE-2", "DE-3", "DE-4", "DE-5"], captured=["Paris"]), {"violations": [{"rule": "TFWW 7.0"}]}, seat=GER, orders=[{"replace": ["DE-1", "DE-2", "DE-3", "DE-4", "DE-5"]}])
case("07.02-extras-charged-to-wa", "7.2", "BR MEF is an EA army replaced on WA capacity: EA cannot replace it",
     dict(rp, eliminated=["BR-MEF", "RU-1"]), {"violations": [{"rule": "TFWW 7.2", "unit": "BR-MEF"}]}, seat=EA, orders=[{"replace": ["BR-MEF", "RU-1"]}])
case("07.02-extras-by-wa", "7.2", "WA spends its own capacity on BR MEF",
     dict(rp, eliminated=["BR-MEF"]), {"state": ["army BR-MEF: on the turn track for turn 3"]}, seat=WA, orders=[{"replace": ["BR-MEF"]}])
# --- victory, Brest-Litovsk, options
case("08.00-alliance-winner-tie", "8.0", "equal alliance totals: the Central Powers win",
     {"turn": 6, "round": 16}, {"state": ["result: central_powers win: end of turn 6 (TFWW 4.1): VP Allies 12, Central Powers 12"]}, seat=GA, orders=[P])
case("08.00-three-player-winner", "8.0", "3 players: Germany wins only with 3 VP more than the German Allies",
     {"players": 3, "turn": 6, "round": 16, "vp": {GER: 8, GA: 6}}, {"state": ["individual winner: the German Allies"]}, seat=GA, orders=[P])
case("08.00-three-player-winner-germany", "8.0", "3 players: Germany 9 against GA 6 wins",
     {"players": 3, "turn": 6, "round": 16, "vp": {GER: 9, GA: 6}}, {"state": ["individual winner: Germany"]}, seat=GA, orders=[P])
case("08.00-four-player-allied-winner", "8.0", "4 players: WA needs 1 VP more than EA; with Brest-Litovsk EA counts 8 more",
     {"turn": 6, "round": 16, "vp": {WA: 12, EA: 6, GER: 3, GA: 3}, "brest_litovsk": True}, {"state": ["individual winner: the Eastern Allies"]}, seat=GA, orders=[P])
case("08.00-four-player-wa-wins", "8.0", "4 players without the treaty: WA 8 against EA 7 makes WA the winner",
     {"turn": 6, "round": 16, "vp": {WA: 8, EA: 7, GER: 3, GA: 3}}, {"state": ["individual winner: the Western Allies"]}, seat=GA, orders=[P])
case("08.01-offer-window", "8.1", "before turn 4 there is no offer: the turn goes straight to replacements",
     {"turn": 3, "round": 16, "eliminated": ["DE-1"]}, {"state": ["awaiting germany: GER: choose replacements"]}, seat=GA, orders=[P])
case("08.01-forced-acceptance", "8.1", "with 2 players the Allies must accept the offer",
     {"players": 2, "turn": 4, "stage": "peace_offer"}, {"events": ["it must be accepted", "the treaty of Brest-Litovsk is in force"], "state": ["Brest-Litovsk: in force"]}, seat="central_powers", orders=[{"offer_peace": True}])
case("08.01-four-player-refusal", "8.1", "with 4 players EA may refuse; Germany may offer again later",
     {"turn": 4, "stage": "peace_offer"}, {"events": ["the Eastern Allies decide", "the Eastern Allies refuse the treaty"], "absent": ["Brest-Litovsk: in force"]},
     entries=[(GER, [{"offer_peace": True}]), (EA, [{"accept_peace": False}])])
case("08.01-no-ru-ro-combat", "8.1", "after the treaty Russian armies may not attack",
     {"turn": 5, "round": 3, "brest_litovsk": True, "armies": {"RU-1": 9, "AH-1": 9}}, {"violations": [{"rule": "TFWW 8.1", "unit": "RU-1"}]}, seat=EA, orders=[A(9, ["RU-1"])])
case("08.01-no-ru-ro-defence", "8.1", "after the treaty no Russian army may be attacked: an attack on a front held only by Russians is refused (no surrender point)",
     {"turn": 5, "round": 4, "brest_litovsk": True, "armies": {"RU-1": 11, "AH-1": 11}}, {"violations": [{"rule": "TFWW 8.1"}]}, seat=GA, orders=[A(11, ["AH-1"])],
     reading="8.1: Russian and Romanian armies may neither attack nor be attacked; a front whose enemy armies are all Russian or Romanian cannot be attacked (face-down defenders: the attack is called off once they are turned up)")
case("08.01-ru-ro-left-out", "8.1", "after the treaty a CP attack on Front 11 meets BR MEF, and the Russians there are left out",
     {"turn": 5, "round": 4, "brest_litovsk": True, "armies": {"RU-1": 11, "BR-MEF": 11, "AH-1": 11}}, {"events": ["defending: BR-MEF"]}, seat=GA, orders=[A(11, ["AH-1"])],
     reading="AMB-14: Russian and Romanian pieces are left out of a combat against other defenders")
case("08.01-frozen-fronts", "8.1", "after the treaty cities on Fronts 7-9 cannot change hands",
     {"turn": 5, "round": 1, "brest_litovsk": True, "armies": {"DE-8": 7, "DE-1": 8}}, {"events": ["front 7 is frozen by Brest-Litovsk: no capture, no surrender point"], "state": ["city Kovno (front 7): EA"]}, seat=GER, orders=[A(7, ["DE-8"])])
case("08.01-cp-garrisons", "8.1", "after the treaty Germany keeps at least one army on each of Fronts 7, 8 and 9",
     {"turn": 5, "round": 1, "brest_litovsk": True, "armies": {"DE-8": 7, "DE-1": 8, "DE-2": 9}}, {"violations": [{"rule": "TFWW 8.1"}]}, seat=GER, orders=[{"transfer": {"from": 7, "to": 1, "pieces": ["DE-8"]}}])
case("08.01-garrison-must-be-filled", "8.1", "after the treaty Germany must have an army on Front 7: its army due goes there, not to Front 1",
     {"turn": 5, "stage": "deploy", "brest_litovsk": True, "track": {"DE-9": 5}, "armies": {"DE-3": 1, "DE-4": 2, "DE-5": 3, "DE-6": 4, "DE-1": 8, "DE-2": 9}},
     {"violations": [{"rule": "TFWW 8.1"}]}, seat=GER, orders=[{"deploy": [{"piece": "DE-9", "front": 1}]}],
     reading="8.1: Germany must have and keep (deve avere e mantenere) an army on each of Fronts 7, 8 and 9: a shortfall is filled by the armies due, after the 4.2/1 garrison duty")
case("08.01-garrison-filled", "8.1", "after the treaty Germany fills Front 7 with its army due",
     {"turn": 5, "stage": "deploy", "brest_litovsk": True, "track": {"DE-9": 5}, "armies": {"DE-3": 1, "DE-4": 2, "DE-5": 3, "DE-6": 4, "DE-1": 8, "DE-2": 9}},
     {"events": ["GER deploys on front 7: DE-9"]}, seat=GER, orders=[{"deploy": [{"piece": "DE-9", "front": 7}]}])
case("09.01-schlieffen", "9.1", "Schlieffen Plan: on turn 1 German armies attack only on Fronts 1-3",
     {"turn": 1, "round": 1, "options": {"schlieffen": True}, "armies": {"DE-7": 4, "FR-1": 4}}, {"violations": [{"rule": "TFWW 9.1", "unit": "DE-7"}]}, seat=GER, orders=[A(4, ["DE-7"])],
     reading="AMB-16: any attack with a German army on turn 1")
case("09.01-schlieffen-off", "9.1", "without the option Germany may attack on Front 4 on turn 1",
     {"turn": 1, "round": 1, "armies": {"DE-7": 4, "FR-1": 4}}, {"events": ["GER attacks on front 4 with DE-7"]}, seat=GER, orders=[A(4, ["DE-7"])])

for name, c in cases:
    with open(os.path.join(D, name + ".yaml"), "w") as f:
        yaml.safe_dump(c, f, sort_keys=False, default_flow_style=None, width=200, allow_unicode=True)
print(len(cases), "cases")

# --- readings of ambiguous rules (digest §G.2) without a case above
more = []
case("g2-amb05-dummies-stay", "4.2/3", "dummies turned face up at the victory check stay on the map",
     {"turn": 2, "round": 16, "armies": {"DE-1": 1, "BE-1": 1}, "dummies": {GER: [1]}}, {"state": ["front 1 (Flanders): BE-1(1) DE-1(3) 1 dummy GER"]}, seat=GA, orders=[P],
     reading="AMB-05: revealed dummies are not removed at the victory check")
case("g2-amb10-german-dummies", "5.1", "a German dummy on a GA front is moved by the German Allies, not by Germany",
     {"turn": 2, "round": 4, "dummies": {GER: [9]}}, {"events": ["GA moves from front 9: dummy → 8"], "state": ["front 8 (Poland): 1 dummy GER"]}, seat=GA,
     orders=[{"move": {"from": 9, "pieces": [{"piece": "dummy", "front": 8}]}}], reading="AMB-10: German dummies pass to GA control like German armies")
case("g2-amb19-defending-faction", "6.1/1", "with armies of both enemy factions on the front, the faction with more armies there defends (places the chit, names the lead)",
     {"turn": 2, "round": 3, "armies": {"RU-3": 9, "DE-1": 9, "AH-1": 9, "AH-3": 9}, "hands": {GA: ["conrad"]}}, {"state": ["against GA (DE-1 AH-1 AH-3)", "awaiting german_allies: GA: place a defence chit"]},
     seat=EA, orders=[A(9, ["RU-3"])], reading="AMB-19: the majority faction defends (German armies on Front 9 count for GA, 5.1); ties go to the base owner")
case("g2-amb21-each-faction-captures", "4.2/3", "both Central Powers factions unopposed on a front each capture a city of their own marker",
     {"turn": 2, "round": 16, "armies": {"DE-8": 8, "AH-1": 8}}, {"events": ["GER captures Warszawa on front 8 from EA"], "state": ["city Warszawa (front 8): captured by GER"]}, seat=GA, orders=[P],
     reading="AMB-21: each faction present captures one city it is entitled to; here GA holds no marker on Front 8 and takes nothing")
for name, c in cases[-4:]:
    with open(os.path.join(D, name + ".yaml"), "w") as f:
        yaml.safe_dump(c, f, sort_keys=False, default_flow_style=None, width=200, allow_unicode=True)

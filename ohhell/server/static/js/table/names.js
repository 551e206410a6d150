// What a seat is called at the table.
import { t } from "../i18n.js";

/** A person's name for a seat: a bot is "Bot 3" (its level is on the seat's status line). */
export function seatName(seat, index) {
  if (seat.kind === "human") return seat.name;
  if (seat.kind === "bot") return t("bot_n", { n: index + 1 });
  return t("status_open");
}

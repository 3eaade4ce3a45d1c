// The script of the pages links in messages open (confirm, preferences, unsubscribe): the Text size
// control, and the share panel's Copy and phone share sheet. Each page works without it (decisions/019).
import { wireTextSize } from './text-size';

wireTextSize();

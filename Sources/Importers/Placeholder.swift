import Boxes
